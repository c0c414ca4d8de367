import type { Middleware } from 'koa';
import type { ArticleSearch, PendingArticles } from '#articles/article-search.js';
import type { ArticleStore } from '#articles/store.js';
import { isPublic, type Article } from '#articles/types.js';
import type { Tenancy } from '#tenancy/index.js';
import { articlesBase, articlesRouterBase } from './queries.js';
import { notFound } from '#api/errors.js';
import { createRenderedCache } from './rendered-cache.js';
import { categoryTree, presentPublishedArticles } from './presenters.js';
import {
  articleListQuery,
  articleListResponse,
  categoryTreeResponse,
  feedbackRequest,
  feedbackResponse,
  publishedArticle,
} from '#api/schemas/articles.js';
import type { QueryOf } from '#api/openapi/documented-router.js';
import type { AuthenticatedState } from '#api/state.js';

export interface ArticlesRouterDeps {
  tenancy: Tenancy;
  rateLimit: Middleware<AuthenticatedState>;
  articles: ArticleStore;
  articleSearch: ArticleSearch;
}

type ListQuery = QueryOf<typeof articleListQuery>;

const base = articlesBase;

/**
 * List pages kept per process, at most 64 M characters of JSON in all. A page's key holds the knowledge base's list version, which every
 * change a page can show moves, so a cached page is never stale. A search page's key also names the
 * articles search still matches on their own text (`lib/articles/article-search.ts`), which changes when
 * their ingestion catches up.
 */
const pageCache = { maxChars: 64_000_000, maxEntryChars: 4_000_000, ttlMs: 5 * 60_000 };

/**
 * The read-only articles API of help centres and portals: only articles that are both published
 * and public exist here; anything else answers 404 like an id that never existed.
 */
export function createArticlesRouter({ tenancy, rateLimit, articles, articleSearch }: ArticlesRouterDeps) {
  const { router, knowledgeBaseOf, categoryFilter } = articlesRouterBase({ tenancy, rateLimit, articles });
  const pages = createRenderedCache(pageCache);

  async function publicArticle(knowledgeBaseId: string, article: Article | undefined, what: string): Promise<Article> {
    if (!article || article.knowledgeBaseId !== knowledgeBaseId || !isPublic(article))
      throw notFound(`No published article ${what}.`);
    return article;
  }

  async function present(knowledgeBaseId: string, list: Article[]) {
    const [categories, helpfulness] = await Promise.all([
      list.some((article) => article.categoryId) ? articles.listCategories(knowledgeBaseId) : [],
      articles.helpfulnessOf(list.map((article) => article.id)),
    ]);
    return presentPublishedArticles(list, { categories, helpfulness });
  }

  router.get(
    base,
    {
      summary: 'List published articles',
      description:
        'Newest published first, or by relevance with `search`, which finds an article as soon as it is listed, as it is now. `total` counts every match; a page beyond the last is empty. An unknown category matches nothing.',
      query: articleListQuery,
      responses: { 200: { description: 'One page', schema: articleListResponse } },
    },
    async (ctx) => {
      const { query } = ctx.state;
      // The version is read alongside the ownership check; it is used only if the check passes.
      const [knowledgeBaseId, version] = await Promise.all([knowledgeBaseOf(ctx), articles.listVersion(ctx.params.kbId!)]);
      // Read after the version: the page is ranked with it and kept under both (lib/articles/article-search.ts).
      const pending = query.search ? await articleSearch.pending(knowledgeBaseId) : undefined;
      ctx.type = 'application/json';
      ctx.body = await pages.get(`${knowledgeBaseId}|${version}|${pending?.key ?? ''}|${JSON.stringify(query)}`, async () =>
        JSON.stringify(await listPage(knowledgeBaseId, query, pending)),
      );
    },
  );

  async function listPage(knowledgeBaseId: string, query: ListQuery, pending: PendingArticles | undefined) {
    const categoryId = await categoryFilter(knowledgeBaseId, query);
    const filter = {
      ...(query.channel && query.channel !== 'ALL' ? { channel: query.channel } : {}),
      ...(categoryId ? { categoryId } : {}),
      ...(query.featured !== undefined ? { featured: query.featured } : {}),
    };
    const offset = (query.page - 1) * query.pageSize;
    let page: { ids: string[]; total: number };
    if (categoryId === null) page = { ids: [], total: 0 };
    else if (query.search && pending) {
      const ranked = await articleSearch.rank(knowledgeBaseId, query.search, pending);
      const keep = await articles.matchesFilter(knowledgeBaseId, ranked, filter);
      const matches = ranked.filter((_, i) => keep[i]);
      page = { ids: matches.slice(offset, offset + query.pageSize), total: matches.length };
    } else page = await articles.listPublic(knowledgeBaseId, filter, { offset, limit: query.pageSize });

    const list = (await articles.getArticles(page.ids)).filter((article): article is Article => article !== undefined);
    return {
      articles: await present(knowledgeBaseId, list),
      total: page.total,
      page: query.page,
      pageSize: query.pageSize,
      totalPages: Math.ceil(page.total / query.pageSize),
    };
  }

  router.get(
    `${base}/categories`,
    {
      summary: 'The category tree',
      description: '`articleCount` counts the published public articles of a category and of all its subcategories.',
      responses: { 200: { description: 'Top-level categories with their children', schema: categoryTreeResponse } },
    },
    async (ctx) => {
      const knowledgeBaseId = await knowledgeBaseOf(ctx);
      ctx.body = categoryTree(
        await articles.listCategories(knowledgeBaseId),
        await articles.countPublicByCategory(knowledgeBaseId),
      );
    },
  );

  router.get(
    `${base}/by-slug/{slug}`,
    {
      summary: 'Read an article by its slug',
      description: 'Counts a view.',
      responses: { 200: { description: 'The article', schema: publishedArticle } },
    },
    async (ctx) => {
      const knowledgeBaseId = await knowledgeBaseOf(ctx);
      const article = await publicArticle(
        knowledgeBaseId,
        await articles.findArticleBySlug(knowledgeBaseId, ctx.params.slug!),
        `with slug ${ctx.params.slug}`,
      );
      await articles.incrementViews(article.id);
      ctx.body = (await present(knowledgeBaseId, [article]))[0];
    },
  );

  router.get(
    `${base}/{publicationId}`,
    {
      summary: 'Read an article by its publication id',
      description: 'Counts a view.',
      responses: { 200: { description: 'The article', schema: publishedArticle } },
    },
    async (ctx) => {
      const knowledgeBaseId = await knowledgeBaseOf(ctx);
      const id = ctx.params.publicationId!;
      const article = await publicArticle(knowledgeBaseId, await articles.getArticle(id), id);
      await articles.incrementViews(article.id);
      ctx.body = (await present(knowledgeBaseId, [article]))[0];
    },
  );

  router.post(
    `${base}/{publicationId}/feedback`,
    {
      summary: 'Say whether an article helped',
      body: feedbackRequest,
      responses: { 200: { description: 'The updated counts', schema: feedbackResponse } },
    },
    async (ctx) => {
      const knowledgeBaseId = await knowledgeBaseOf(ctx);
      const id = ctx.params.publicationId!;
      const article = await publicArticle(knowledgeBaseId, await articles.getArticle(id), id);
      ctx.body = await articles.recordFeedback(article, ctx.request.body.isHelpful);
    },
  );

  return router;
}
