import type { Middleware } from 'koa';
import type { QuestionSearch } from '#articles/question-search.js';
import type { ArticleStore } from '#articles/store.js';
import { isOnChannel, isPublic } from '#articles/types.js';
import type { Tenancy } from '#tenancy/index.js';
import { articlesBase, articlesRouterBase } from './queries.js';
import { notFound } from '#api/errors.js';
import {
  popularQuestionsQuery,
  popularQuestionsResponse,
  questionSearchQuery,
  questionSearchResponse,
} from '#api/schemas/articles.js';
import type { AuthenticatedState } from '#api/state.js';

export interface ArticleQuestionsRouterDeps {
  tenancy: Tenancy;
  rateLimit: Middleware<AuthenticatedState>;
  articles: ArticleStore;
  questionSearch: QuestionSearch;
}

const base = articlesBase;

/**
 * The entry-point questions of the published public articles: search, the popular ones, and the
 * analytics a help centre records (a question matched, a question clicked). Registered before the
 * articles router, whose `{publicationId}` would otherwise take `questions`.
 */
export function createArticleQuestionsRouter({ tenancy, rateLimit, articles, questionSearch }: ArticleQuestionsRouterDeps) {
  const { router, knowledgeBaseOf, categoryFilter } = articlesRouterBase({ tenancy, rateLimit, articles });

  router.get(
    `${base}/questions/search`,
    {
      summary: 'Search entry-point questions',
      description: 'Keyword matching over questions, snippets and tags that forgives typos and unfinished words; best first.',
      query: questionSearchQuery,
      responses: { 200: { description: 'Matching questions', schema: questionSearchResponse } },
    },
    async (ctx) => {
      const knowledgeBaseId = await knowledgeBaseOf(ctx);
      const { query } = ctx.state;
      const categoryId = await categoryFilter(knowledgeBaseId, query);
      if (categoryId === null) return void (ctx.body = { questions: [] });
      const found = await questionSearch.search(knowledgeBaseId, query.q, {
        limit: query.limit,
        ...(query.channel ? { channel: query.channel } : {}),
        ...(categoryId ? { categoryId } : {}),
      });
      ctx.body = { questions: await questionsOf(knowledgeBaseId, found, (hit) => ({ score: hit.score })) };
    },
  );

  router.get(
    `${base}/questions/popular`,
    {
      summary: 'Popular entry-point questions',
      description: 'Ranked by how often each question was matched (recorded with `matched`).',
      query: popularQuestionsQuery,
      responses: { 200: { description: 'Most matched first', schema: popularQuestionsResponse } },
    },
    async (ctx) => {
      const knowledgeBaseId = await knowledgeBaseOf(ctx);
      const { query } = ctx.state;
      const categoryId = await categoryFilter(knowledgeBaseId, query);
      if (categoryId === null) return void (ctx.body = { questions: [] });
      const popular = await articles.popularEntryPoints(knowledgeBaseId, 1_000);
      const questions = await questionsOf(knowledgeBaseId, popular, (hit) => ({ matchedCount: hit.matched }), {
        ...(query.channel ? { channel: query.channel } : {}),
        ...(categoryId ? { categoryId } : {}),
      });
      ctx.body = { questions: questions.slice(0, query.limit) };
    },
  );

  /** Entry points with their article, in the given order, dropping those whose article is not shown. */
  async function questionsOf<T extends { entryPointId: string }>(
    knowledgeBaseId: string,
    hits: T[],
    extra: (hit: T) => Record<string, unknown>,
    filter: { channel?: string; categoryId?: string } = {},
  ) {
    const found = await Promise.all(hits.map((hit) => articles.findEntryPoint(hit.entryPointId)));
    const articleList = await articles.getArticles([...new Set(found.flatMap((entry) => (entry ? [entry.articleId] : [])))]);
    const articleOf = new Map(articleList.flatMap((article) => (article ? [[article.id, article] as const] : [])));
    return hits.flatMap((hit, i) => {
      const entry = found[i];
      const article = entry && articleOf.get(entry.articleId);
      if (!entry || !article || article.knowledgeBaseId !== knowledgeBaseId || !isPublic(article)) return [];
      if (!isOnChannel(article, filter.channel) || (filter.categoryId && article.categoryId !== filter.categoryId)) return [];
      const { id, question, snippet, isPrimary, tags } = entry.entryPoint;
      return [
        {
          id,
          question,
          snippet,
          isPrimary,
          tags,
          ...extra(hit),
          article: { id: article.id, slug: article.slug, title: article.title },
        },
      ];
    });
  }

  async function entryPointOr404(knowledgeBaseId: string, entryPointId: string) {
    const entry = await articles.findEntryPoint(entryPointId);
    const article = entry && entry.knowledgeBaseId === knowledgeBaseId ? await articles.getArticle(entry.articleId) : undefined;
    if (!entry || !article || !isPublic(article)) throw notFound(`No entry point ${entryPointId}.`);
    return { entry, article };
  }

  router.post(
    `${base}/questions/{entryPointId}/matched`,
    { summary: 'Record that a question appeared in search results', responses: { 204: { description: 'Recorded' } } },
    async (ctx) => {
      const knowledgeBaseId = await knowledgeBaseOf(ctx);
      await entryPointOr404(knowledgeBaseId, ctx.params.entryPointId!);
      await articles.recordMatched(knowledgeBaseId, ctx.params.entryPointId!);
      ctx.status = 204;
    },
  );

  router.post(
    `${base}/questions/{entryPointId}/clicked`,
    {
      summary: 'Record a click-through on a question',
      description: "Also counts a view of the question's article.",
      responses: { 204: { description: 'Recorded' } },
    },
    async (ctx) => {
      const knowledgeBaseId = await knowledgeBaseOf(ctx);
      const { article } = await entryPointOr404(knowledgeBaseId, ctx.params.entryPointId!);
      await articles.recordClicked(ctx.params.entryPointId!);
      await articles.incrementViews(article.id);
      ctx.status = 204;
    },
  );

  return router;
}
