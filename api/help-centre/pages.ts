import escapeHtml from 'escape-html';
import type { Article, Category } from '#articles/types.js';

/**
 * The hosted help centre's pages, as HTML strings: pure, so each is tested on its own. Everything
 * from a tenant (names, titles, excerpts, slugs) is escaped here; an article's body arrives already
 * cleaned (`renderArticleBody`). The pages hold no script: links and one plain form.
 */

export interface KnowledgeBaseRef {
  id: string;
  name: string;
}

/** An article as a list shows it. */
export type ArticleSummary = Pick<Article, 'slug' | 'title' | 'excerpt'>;

/** The path of the help centre's pages; only the knowledge base's id and the slugs vary. */
export const helpPaths = {
  home: (knowledgeBaseId: string) => `/help/${encodeURIComponent(knowledgeBaseId)}`,
  article: (knowledgeBaseId: string, slug: string) => `${helpPaths.home(knowledgeBaseId)}/${encodeURIComponent(slug)}`,
  category: (knowledgeBaseId: string, slug: string) =>
    `${helpPaths.home(knowledgeBaseId)}/categories/${encodeURIComponent(slug)}`,
  styles: '/help/assets/help.css',
};

const longDate = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'UTC' });

function layout(page: { title: string; knowledgeBase?: KnowledgeBaseRef; description?: string; main: string }): string {
  const { knowledgeBase } = page;
  const home = knowledgeBase
    ? `<a class="home" href="${helpPaths.home(knowledgeBase.id)}">${escapeHtml(knowledgeBase.name)} help centre</a>`
    : '<span class="home">Help centre</span>';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(page.title)}</title>
${page.description ? `<meta name="description" content="${escapeHtml(page.description)}">\n` : ''}<link rel="stylesheet" href="${helpPaths.styles}">
<link rel="icon" href="data:,">
</head>
<body>
<header>${home}</header>
<main>
${page.main}
</main>
</body>
</html>
`;
}

function searchForm(knowledgeBaseId: string, query = ''): string {
  return `<form class="search" role="search" method="get" action="${helpPaths.home(knowledgeBaseId)}">
<label for="q">Search the help centre</label>
<input id="q" name="q" type="search" value="${escapeHtml(query)}" maxlength="200">
<button type="submit">Search</button>
</form>`;
}

function articleList(knowledgeBaseId: string, articles: ArticleSummary[]): string {
  const items = articles.map(
    (article) =>
      `<li><a href="${helpPaths.article(knowledgeBaseId, article.slug)}">${escapeHtml(article.title)}</a>` +
      (article.excerpt ? `<p>${escapeHtml(article.excerpt)}</p>` : '') +
      '</li>',
  );
  return `<ul class="articles">\n${items.join('\n')}\n</ul>`;
}

/** A category's section on the home page: its newest articles and, when it has more, a link to them all. */
export interface CategorySection {
  category: Pick<Category, 'name' | 'slug' | 'description'>;
  /** Nesting depth: 0 for a top-level category. */
  depth: number;
  articles: ArticleSummary[];
  /** How many articles the category has in all (the section may show fewer). */
  total: number;
}

/** The help centre's home: search, featured and latest articles, then each category with its newest. */
export function homePage(page: {
  knowledgeBase: KnowledgeBaseRef;
  featured: ArticleSummary[];
  latest: ArticleSummary[];
  sections: CategorySection[];
}): string {
  const { knowledgeBase } = page;
  const parts = [`<h1>${escapeHtml(knowledgeBase.name)} help centre</h1>`, searchForm(knowledgeBase.id)];
  if (page.featured.length > 0)
    parts.push(`<section><h2>Featured</h2>\n${articleList(knowledgeBase.id, page.featured)}</section>`);
  if (page.latest.length > 0)
    parts.push(`<section><h2>Latest articles</h2>\n${articleList(knowledgeBase.id, page.latest)}</section>`);
  for (const section of page.sections) {
    if (section.total === 0) continue;
    const heading = `h${Math.min(6, 2 + section.depth)}`;
    const link = helpPaths.category(knowledgeBase.id, section.category.slug);
    parts.push(
      `<section class="category" data-depth="${section.depth}"><${heading}><a href="${link}">${escapeHtml(section.category.name)}</a></${heading}>` +
        (section.category.description ? `\n<p>${escapeHtml(section.category.description)}</p>` : '') +
        `\n${articleList(knowledgeBase.id, section.articles)}` +
        (section.total > section.articles.length ? `\n<p><a href="${link}">All ${section.total} articles</a></p>` : '') +
        '</section>',
    );
  }
  if (parts.length === 2) parts.push('<p>Nothing is published here yet.</p>');
  return layout({ title: `${knowledgeBase.name} help centre`, knowledgeBase, main: parts.join('\n') });
}

/** The results of a search from the home page's box. */
export function searchPage(page: { knowledgeBase: KnowledgeBaseRef; query: string; results: ArticleSummary[] }): string {
  const { knowledgeBase, query, results } = page;
  const found =
    results.length === 0
      ? `<p>No article matches “${escapeHtml(query)}”.</p>`
      : `<p>${results.length === 1 ? '1 article' : `${results.length} articles`} for “${escapeHtml(query)}”.</p>\n${articleList(knowledgeBase.id, results)}`;
  return layout({
    title: `${query} · ${knowledgeBase.name} help centre`,
    knowledgeBase,
    main: `<h1>Search</h1>\n${searchForm(knowledgeBase.id, query)}\n${found}`,
  });
}

/** One category's articles, a page at a time, with its subcategories as links. */
export function categoryPage(page: {
  knowledgeBase: KnowledgeBaseRef;
  category: Pick<Category, 'name' | 'slug' | 'description'>;
  subcategories: Array<Pick<Category, 'name' | 'slug'>>;
  articles: ArticleSummary[];
  page: number;
  totalPages: number;
}): string {
  const { knowledgeBase, category } = page;
  const here = helpPaths.category(knowledgeBase.id, category.slug);
  const parts = [`<h1>${escapeHtml(category.name)}</h1>`];
  if (category.description) parts.push(`<p>${escapeHtml(category.description)}</p>`);
  if (page.subcategories.length > 0)
    parts.push(
      `<nav class="subcategories"><ul>\n${page.subcategories
        .map((sub) => `<li><a href="${helpPaths.category(knowledgeBase.id, sub.slug)}">${escapeHtml(sub.name)}</a></li>`)
        .join('\n')}\n</ul></nav>`,
    );
  parts.push(page.articles.length > 0 ? articleList(knowledgeBase.id, page.articles) : '<p>No articles on this page.</p>');
  const pager = [
    page.page > 1 ? `<a rel="prev" href="${here}?page=${page.page - 1}">Newer articles</a>` : '',
    page.page < page.totalPages ? `<a rel="next" href="${here}?page=${page.page + 1}">Older articles</a>` : '',
  ].filter(Boolean);
  if (pager.length > 0) parts.push(`<nav class="pager">${pager.join(' ')}</nav>`);
  return layout({ title: `${category.name} · ${knowledgeBase.name} help centre`, knowledgeBase, main: parts.join('\n') });
}

/** One article: what the AI cites. `bodyHtml` is the cleaned body; `thanked` after a vote. */
export function articlePage(page: {
  knowledgeBase: KnowledgeBaseRef;
  article: Pick<Article, 'slug' | 'title' | 'excerpt' | 'imageUrl' | 'readingTimeMinutes' | 'updatedAt'>;
  category?: Pick<Category, 'name' | 'slug'>;
  bodyHtml: string;
  thanked: boolean;
}): string {
  const { knowledgeBase, article, category } = page;
  const facts = [
    category ? `<a href="${helpPaths.category(knowledgeBase.id, category.slug)}">${escapeHtml(category.name)}</a>` : undefined,
    `Updated <time datetime="${escapeHtml(article.updatedAt)}">${longDate.format(new Date(article.updatedAt))}</time>`,
    `${Math.max(1, Math.round(article.readingTimeMinutes))} min read`,
  ].filter(Boolean);
  const cover = article.imageUrl?.startsWith('https://')
    ? `<img class="cover" src="${escapeHtml(article.imageUrl)}" alt="">\n`
    : '';
  const feedback = page.thanked
    ? '<p role="status">Thank you for your feedback.</p>'
    : `<form method="post" action="${helpPaths.article(knowledgeBase.id, article.slug)}/feedback">
<span>Was this article helpful?</span>
<button type="submit" name="helpful" value="yes">Yes</button>
<button type="submit" name="helpful" value="no">No</button>
</form>`;
  return layout({
    title: `${article.title} · ${knowledgeBase.name} help centre`,
    knowledgeBase,
    description: article.excerpt,
    main: `<article>
<h1>${escapeHtml(article.title)}</h1>
<p class="facts">${facts.join(' · ')}</p>
${cover}<div class="body">
${page.bodyHtml}
</div>
</article>
<section class="feedback" id="feedback">
${feedback}
</section>`,
  });
}

/** Any failure under /help, as a page with the status's plain meaning and the request id for support. */
export function errorPage(error: { status: number; message: string }, requestId?: string): string {
  const title = error.status === 404 ? 'Page not found' : error.status === 429 ? 'Too many requests' : 'Something went wrong';
  const explanation =
    error.status === 404
      ? 'There is no published article or page at this address. It may have been moved or unpublished.'
      : escapeHtml(error.message);
  return layout({
    title,
    main: `<h1>${title}</h1>\n<p>${explanation}</p>${requestId ? `\n<p class="request-id">Request ${escapeHtml(requestId)}</p>` : ''}`,
  });
}
