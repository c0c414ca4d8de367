import type { Middleware } from 'koa';
import type { ArticleFeed } from '#articles/ai-feed.js';
import { SlugTakenError, UnknownArticleError, UnknownCategoryError, type ArticleStore } from '#articles/store.js';
import type { Article, Category } from '#articles/types.js';
import type { KnowledgeBase, Tenancy } from '#tenancy/index.js';
import { conflict, invalidPayload, notFound } from '#api/errors.js';
import { DocumentedRouter } from '#api/openapi/documented-router.js';
import { presentEntryPoint } from './presenters.js';
import {
  authoredArticleResponse,
  categoryResponse,
  createArticleRequest,
  createCategoryRequest,
  updateArticleRequest,
} from '#api/schemas/articles-admin.js';

export interface AdminArticlesRouterDeps {
  tenancy: Tenancy;
  /** The admin token with its budgets (`api/middleware/token-budgets.ts`). */
  requireAdmin: Middleware;
  articles: ArticleStore;
  feed: ArticleFeed;
}

const base = '/admin/knowledge-bases/{kbId}';

/**
 * Help-centre authoring: categories and articles of a knowledge base. A published, public article
 * is also fed to its knowledge base for the AI (`lib/articles/ai-feed.ts`); the feed is told about
 * every change, and removes the article once it stops being published and public.
 */
/**
 * Above the largest valid article: about 330,000 characters of fields at most (body, excerpt, 50 entry
 * points with their snippets and tags), 6 bytes each when every one is escaped as `\uXXXX`.
 */
const articleBodyLimitBytes = 2 * 1024 * 1024;

export function createAdminArticlesRouter({ tenancy, requireAdmin, articles, feed }: AdminArticlesRouterDeps) {
  const router = new DocumentedRouter(
    { tags: ['Help-centre authoring'], security: 'admin', errors: [401, 404, 429, 503] },
    { bodyLimitBytes: articleBodyLimitBytes },
  );
  router.use(requireAdmin);

  async function knowledgeBaseOr404(id: string): Promise<KnowledgeBase> {
    const knowledgeBase = await tenancy.getKnowledgeBase(id);
    if (!knowledgeBase) throw notFound(`No knowledge base ${id}.`);
    return knowledgeBase;
  }

  async function articleOr404(knowledgeBase: KnowledgeBase, id: string): Promise<Article> {
    const article = await articles.getArticle(id);
    if (article?.knowledgeBaseId !== knowledgeBase.id) throw notFound(`No article ${id} in knowledge base ${knowledgeBase.id}.`);
    return article;
  }

  router.post(
    `${base}/categories`,
    {
      summary: 'Create a help-centre category',
      description: 'The slug is derived from the name when absent. 409 when an explicit slug is taken in the knowledge base.',
      body: createCategoryRequest,
      responses: { 201: { description: 'The category', schema: categoryResponse } },
      errors: [409],
    },
    async (ctx) => {
      const knowledgeBase = await knowledgeBaseOr404(ctx.params.kbId!);
      const category = await authoring(() => articles.createCategory(knowledgeBase.id, ctx.request.body));
      ctx.status = 201;
      ctx.body = presentCategory(category);
    },
  );

  router.post(
    `${base}/articles`,
    {
      summary: 'Create a help-centre article',
      description:
        'Defaults: channels ["ALL"], not featured, DRAFT, PUBLIC, empty excerpt. Created PUBLISHED and PUBLIC, it is ingested ' +
        'into the knowledge base as an ARTICLE source; when that cannot be handed over (503), the article is not kept.',
      body: createArticleRequest,
      responses: { 201: { description: 'The article', schema: authoredArticleResponse } },
      errors: [409],
    },
    async (ctx) => {
      const knowledgeBase = await knowledgeBaseOr404(ctx.params.kbId!);
      const input = ctx.request.body;
      const article = await authoring(() => articles.createArticle(knowledgeBase.tenantId, knowledgeBase.id, input));
      try {
        await feed.syncArticle(undefined, article);
      } catch (error) {
        // Not kept, so sending the same request again neither duplicates it nor finds its slug taken.
        await articles.deleteArticle(article).catch(() => undefined);
        throw error;
      }
      ctx.status = 201;
      ctx.body = presentArticle(article);
    },
  );

  router.patch(
    `${base}/articles/{articleId}`,
    {
      summary: 'Change a help-centre article',
      description:
        'Any article field; the others stay. Sending `entryPoints` replaces them (with new ids). The first move to PUBLISHED ' +
        'sets `publishedAt`; every change sets `updatedAt`. A published, public article is ingested again; one that stops ' +
        'being published and public is removed from the knowledge base.',
      body: updateArticleRequest,
      responses: { 200: { description: 'The article', schema: authoredArticleResponse } },
      errors: [409],
    },
    async (ctx) => {
      const knowledgeBase = await knowledgeBaseOr404(ctx.params.kbId!);
      const before = await articleOr404(knowledgeBase, ctx.params.articleId!);
      const after = await authoring(() => articles.updateArticle(before, ctx.request.body));
      await feed.syncArticle(before, after);
      ctx.body = presentArticle(after);
    },
  );

  router.delete(
    `${base}/articles/{articleId}`,
    {
      summary: 'Delete a help-centre article',
      description: 'A published, public article is removed from the knowledge base first, so a failed call can be repeated.',
      responses: { 204: { description: 'Deleted' } },
    },
    async (ctx) => {
      const knowledgeBase = await knowledgeBaseOr404(ctx.params.kbId!);
      const article = await articleOr404(knowledgeBase, ctx.params.articleId!);
      await feed.syncArticle(article, undefined);
      await articles.deleteArticle(article);
      ctx.status = 204;
    },
  );

  return router;
}

/** Runs a store write, turning its refusals into the API's errors. */
async function authoring<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (error instanceof SlugTakenError) {
      throw conflict(`The slug "${error.slug}" is already taken in this knowledge base: choose another or leave it out.`);
    }
    if (error instanceof UnknownCategoryError) {
      throw invalidPayload(`${error.field} ${error.categoryId} is not a category of this knowledge base.`, [
        { path: `/${error.field}`, message: 'is not a category of this knowledge base' },
      ]);
    }
    if (error instanceof UnknownArticleError) throw notFound(`No article ${error.articleId}: it was deleted.`);
    throw error;
  }
}

export const presentCategory = ({ id, name, slug, parentId, description, icon }: Category) => ({
  id,
  name,
  slug,
  parentId,
  description,
  icon,
});

/** The article as authored (the admin view: drafts and internal articles included). */
export const presentArticle = (article: Article) => ({
  id: article.id,
  slug: article.slug,
  title: article.title,
  body: article.body,
  excerpt: article.excerpt,
  imageUrl: article.imageUrl,
  categoryId: article.categoryId,
  channels: article.channels,
  featured: article.featured,
  status: article.status,
  visibility: article.visibility,
  entryPoints: article.entryPoints.map(presentEntryPoint),
  readingTimeMinutes: article.readingTimeMinutes,
  publishedAt: article.publishedAt,
  createdAt: article.createdAt,
  updatedAt: article.updatedAt,
});
