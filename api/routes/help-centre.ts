import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Context } from 'koa';
import type { ArticleSearch, PendingArticles } from '#articles/article-search.js';
import type { ArticleStore } from '#articles/store.js';
import { isPublic, type Article } from '#articles/types.js';
import type { Tenancy } from '#tenancy/index.js';
import { notFound } from '#api/errors.js';
import { clientAddressOf } from '#api/client-address.js';
import { rateLimitBy } from '#api/middleware/rate-limit.js';
import { DocumentedRouter } from '#api/openapi/documented-router.js';
import type { ApiState } from '#api/state.js';
import { madeOnce } from '#platform/made-once.js';
import type { RedisClient } from '#platform/redis.js';
import { categoryTree, type CategoryNode } from './articles/presenters.js';
import { createRenderedCache } from './articles/rendered-cache.js';
import { renderArticleBody } from '../help-centre/article-body.js';
import {
  articlePage,
  categoryPage,
  helpPaths,
  homePage,
  searchPage,
  type CategorySection,
  type KnowledgeBaseRef,
} from '../help-centre/pages.js';

/**
 * Nothing runs on these pages: the one style sheet from this origin, authors' images over https,
 * the helpfulness form posting back here, no framing.
 */
export const helpCentrePolicy = [
  "default-src 'none'",
  "style-src 'self'",
  'img-src https: data:',
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

export interface HelpCentreRouterDeps {
  tenancy: Pick<Tenancy, 'getKnowledgeBase'>;
  articles: ArticleStore;
  articleSearch: ArticleSearch;
  redis: RedisClient;
  settings: { redisPrefix: string; pagesPerMinute: number; feedbackPerAddress: number };
}

/**
 * Home, category and search pages kept per process, at most 32 M characters of HTML in all, under
 * a key holding the knowledge base's list version (which every change a list can show moves); a
 * search page's key also names the articles search still matches on their own text, as the
 * articles API's list pages do (docs/articles.md).
 */
const pageCache = { maxChars: 32_000_000, maxEntryChars: 2_000_000, ttlMs: 5 * 60_000 };

/** What the home page and a category page show. */
const listing = { perCategory: 10, featured: 10, latest: 10, pageSize: 50, searchResults: 50 };
/** Votes a client address may cast in this window. */
export const feedbackWindowSeconds = 600;
/** Lists follow the help centre's channel: articles on it or on `ALL`. */
const channel = 'HELP_CENTER';

// A page may carry any query parameter (a campaign's `utm_…`): only those the page reads are checked.
const homeQuery = {
  type: 'object',
  additionalProperties: true,
  properties: { q: { type: 'string', maxLength: 200, description: 'Search the articles.' } },
} as const;
const categoryQuery = {
  type: 'object',
  additionalProperties: true,
  properties: { page: { type: 'integer', minimum: 1, maximum: 10_000, default: 1 } },
} as const;
const articleQuery = {
  type: 'object',
  additionalProperties: true,
  properties: { feedback: { type: 'string', enum: ['thanks'], description: 'Set after a vote.' } },
} as const;

const voteForm = {
  type: 'object',
  additionalProperties: false,
  required: ['helpful'],
  properties: { helpful: { type: 'string', enum: ['yes', 'no'], description: 'Whether the article helped.' } },
} as const;

const html = { schema: { type: 'string' }, contentType: 'text/html' };

// api/help-centre: from api/routes under tsx, from dist/api/routes once built (the build copies it).
const stylesFile = new URL('../help-centre/help.css', import.meta.url);
const readStyles = madeOnce(() => readFile(stylesFile, 'utf8'));

/**
 * The hosted help centre (docs/articles.md): the published public articles of a knowledge base as
 * pages, at the address the AI cites. No sign-in; pages, errors included, are HTML.
 */
export function createHelpCentreRouter({ tenancy, articles, articleSearch, redis, settings }: HelpCentreRouterDeps) {
  const router = new DocumentedRouter<ApiState>(
    { tags: ['Help centre'], security: 'none', errors: [404, 429, 503], errorPages: true },
    { bodyLimitBytes: 1024 },
  );
  const budget = (name: string, limit: number, windowSeconds: number, subject: string) =>
    rateLimitBy<ApiState>(redis, { prefix: settings.redisPrefix, name, limit, windowSeconds, keyOf: clientAddressOf, subject });
  const pagesBudget = budget('help-pages', settings.pagesPerMinute, 60, 'help-centre pages from this address');
  const votesBudget = budget('help-votes', settings.feedbackPerAddress, feedbackWindowSeconds, 'votes from this address');
  const rendered = createRenderedCache(pageCache);

  /** The knowledge base of the path, and a cache key of what a list page of it shows as of now. */
  async function listingOf(ctx: Context, page: string) {
    // The version is read before the lists: a page is never kept under a newer version than it shows.
    const [knowledgeBase, version] = await Promise.all([knowledgeBaseOf(ctx), articles.listVersion(ctx.params.kbId!)]);
    return { knowledgeBase, key: JSON.stringify([knowledgeBase.id, knowledgeBase.name, version, page]) };
  }

  async function knowledgeBaseOf(ctx: Context): Promise<KnowledgeBaseRef> {
    const knowledgeBase = await tenancy.getKnowledgeBase(ctx.params.kbId!);
    if (!knowledgeBase) throw notFound(`No help centre ${ctx.params.kbId}.`);
    return { id: knowledgeBase.id, name: knowledgeBase.name };
  }

  async function publishedArticle(knowledgeBaseId: string, slug: string): Promise<Article> {
    const article = await articles.findArticleBySlug(knowledgeBaseId, slug);
    if (!article || article.knowledgeBaseId !== knowledgeBaseId || !isPublic(article))
      throw notFound(`No published article ${slug}.`);
    return article;
  }

  async function listed(
    knowledgeBaseId: string,
    filter: { categoryId?: string; featured?: boolean },
    offset: number,
    limit: number,
  ) {
    const page = await articles.listPublic(knowledgeBaseId, { channel, ...filter }, { offset, limit });
    return { articles: await existing(page.ids), total: page.total };
  }

  /** The articles of `ids` that still exist, in that order. */
  async function existing(ids: string[]): Promise<Article[]> {
    return (await articles.getArticles(ids)).filter((article): article is Article => article !== undefined);
  }

  /** A page, cacheable by anyone for a minute, and 304 when the client holds the same. */
  function sendPage(ctx: Context, page: string) {
    ctx.set('Content-Security-Policy', helpCentrePolicy);
    ctx.set('Cache-Control', 'public, max-age=60');
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = page;
    ctx.etag = createHash('sha256').update(page).digest('base64url').slice(0, 27);
    if (ctx.fresh) ctx.status = 304;
  }

  router.get(
    '/help/assets/help.css',
    {
      summary: "The help centre's styles",
      responses: { 200: { description: 'A style sheet', schema: { type: 'string' }, contentType: 'text/css' } },
    },
    async (ctx) => {
      ctx.set('Cache-Control', 'public, max-age=3600');
      ctx.type = 'text/css; charset=utf-8';
      ctx.body = await readStyles();
    },
  );

  router.get(
    '/help/{kbId}',
    {
      summary: "A knowledge base's help centre",
      description:
        'An HTML page: featured and latest articles, then each category with its newest. With `q`, the articles matching it, best first.',
      query: homeQuery,
      responses: { 200: { description: 'The page', ...html } },
      errors: [400],
    },
    pagesBudget,
    async (ctx) => {
      const query = ctx.state.query.q?.trim();
      const { knowledgeBase, key } = await listingOf(ctx, query ? `search ${query}` : 'home');
      if (query) {
        // Read after the version: the page is ranked with it and kept under both (lib/articles/article-search.ts).
        const pending = await articleSearch.pending(knowledgeBase.id);
        const page = async () => searchPage({ knowledgeBase, query, results: await search(knowledgeBase.id, query, pending) });
        return sendPage(ctx, await rendered.get(`${key} ${pending.key}`, page));
      }
      const home = async () => {
        const [featured, latest, sections] = await Promise.all([
          listed(knowledgeBase.id, { featured: true }, 0, listing.featured),
          listed(knowledgeBase.id, {}, 0, listing.latest),
          categorySections(knowledgeBase.id),
        ]);
        return homePage({ knowledgeBase, featured: featured.articles, latest: latest.articles, sections });
      };
      sendPage(ctx, await rendered.get(key, home));
    },
  );

  async function search(knowledgeBaseId: string, query: string, pending: PendingArticles): Promise<Article[]> {
    const ranked = await articleSearch.rank(knowledgeBaseId, query, pending);
    const keep = await articles.arePublic(knowledgeBaseId, ranked);
    return existing(ranked.filter((_, i) => keep[i]).slice(0, listing.searchResults));
  }

  /** Every category in tree order (a parent before its children), each with its newest articles. */
  async function categorySections(knowledgeBaseId: string): Promise<CategorySection[]> {
    const ordered = depthFirst(categoryTree(await articles.listCategories(knowledgeBaseId), new Map()));
    const lists = await Promise.all(
      ordered.map(({ category }) => listed(knowledgeBaseId, { categoryId: category.id }, 0, listing.perCategory)),
    );
    return ordered.map(({ category, depth }, i) => ({ category, depth, ...lists[i]! }));
  }

  router.get(
    '/help/{kbId}/categories/{categorySlug}',
    {
      summary: 'A category of the help centre',
      description: "An HTML page: the category's articles, newest first, 50 a page, and its subcategories.",
      query: categoryQuery,
      responses: { 200: { description: 'The page', ...html } },
      errors: [400],
    },
    pagesBudget,
    async (ctx) => {
      const { categorySlug } = ctx.params as { categorySlug: string };
      const page = ctx.state.query.page;
      const { knowledgeBase, key } = await listingOf(ctx, `category ${categorySlug} ${page}`);
      const render = async () => {
        const category = await articles.findCategoryBySlug(knowledgeBase.id, categorySlug);
        if (!category) throw notFound(`No category ${categorySlug}.`);
        const [list, categories] = await Promise.all([
          listed(knowledgeBase.id, { categoryId: category.id }, (page - 1) * listing.pageSize, listing.pageSize),
          articles.listCategories(knowledgeBase.id),
        ]);
        return categoryPage({
          knowledgeBase,
          category,
          subcategories: categories.filter((other) => other.parentId === category.id),
          articles: list.articles,
          page,
          totalPages: Math.max(1, Math.ceil(list.total / listing.pageSize)),
        });
      };
      sendPage(ctx, await rendered.get(key, render));
    },
  );

  router.get(
    '/help/{kbId}/{slug}',
    {
      summary: 'An article of the help centre',
      description:
        'An HTML page: the published public article the AI cites at this address, whatever its channels. Counts a view.',
      query: articleQuery,
      responses: { 200: { description: 'The page', ...html }, 304: { description: 'Unchanged since the ETag sent' } },
      errors: [400],
    },
    pagesBudget,
    async (ctx) => {
      const knowledgeBase = await knowledgeBaseOf(ctx);
      const article = await publishedArticle(knowledgeBase.id, ctx.params.slug!);
      const [category] = await Promise.all([
        article.categoryId ? articles.getCategory(article.categoryId) : undefined,
        articles.incrementViews(article.id),
      ]);
      sendPage(
        ctx,
        articlePage({
          knowledgeBase,
          article,
          category,
          bodyHtml: renderArticleBody(article.body),
          thanked: ctx.state.query.feedback === 'thanks',
        }),
      );
    },
  );

  router.post(
    '/help/{kbId}/{slug}/feedback',
    {
      summary: 'Say whether a help-centre article helped',
      description:
        "The article page's form: `helpful=yes` or `helpful=no`, form-encoded. Counts the vote like the articles API's feedback and answers 303 back to the article.",
      body: voteForm,
      bodyType: 'form',
      responses: { 303: { description: 'Back to the article, which thanks the reader' } },
    },
    votesBudget,
    async (ctx) => {
      const { helpful } = ctx.request.body;
      const knowledgeBase = await knowledgeBaseOf(ctx);
      const article = await publishedArticle(knowledgeBase.id, ctx.params.slug!);
      await articles.recordFeedback(article, helpful === 'yes');
      ctx.status = 303;
      ctx.redirect(`${helpPaths.article(knowledgeBase.id, article.slug)}?feedback=thanks#feedback`);
    },
  );

  return router;
}

/** The tree's categories with their depth, each parent followed by its children. */
function depthFirst(nodes: CategoryNode[], depth = 0): Array<{ category: CategoryNode; depth: number }> {
  return nodes.flatMap((category) => [{ category, depth }, ...depthFirst(category.children, depth + 1)]);
}
