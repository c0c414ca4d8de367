import MiniSearch from 'minisearch';
import type { ArticleStore } from './store.js';
import { isOnChannel, type ArticleChannel } from './types.js';

interface QuestionDocument {
  id: string;
  question: string;
  snippet: string;
  tags: string;
  articleId: string;
  channels: ArticleChannel[];
  categoryId: string | null;
}

interface KnowledgeBaseIndex {
  version: number;
  index: MiniSearch<QuestionDocument>;
}

/** Knowledge bases whose question index a process keeps; the least recently built goes first. */
const cachedIndexes = 200;

/**
 * Search over the entry-point questions of a knowledge base's public articles: keyword matching
 * over questions, snippets and tags that forgives typos (fuzzy) and unfinished words (prefix).
 * Each API process keeps an in-memory index per knowledge base and rebuilds it when the store's
 * version of that knowledge base's questions changes.
 */
export function createQuestionSearch(store: Pick<ArticleStore, 'publicEntryPoints' | 'entryPointsVersion' | 'getArticles'>) {
  const indexes = new Map<string, Promise<KnowledgeBaseIndex>>();

  async function build(knowledgeBaseId: string, version: number): Promise<KnowledgeBaseIndex> {
    const entries = await store.publicEntryPoints(knowledgeBaseId);
    const articles = await store.getArticles([...new Set(entries.map((entry) => entry.articleId))]);
    const articleOf = new Map(articles.filter((article) => article !== undefined).map((article) => [article.id, article]));
    const index = new MiniSearch<QuestionDocument>({
      fields: ['question', 'snippet', 'tags'],
      storeFields: ['articleId', 'channels', 'categoryId'],
      searchOptions: { boost: { question: 2, tags: 1.5 }, fuzzy: 0.2, prefix: true, combineWith: 'OR' },
    });
    index.addAll(
      entries.flatMap(({ entryPoint, articleId }) => {
        const article = articleOf.get(articleId);
        if (!article) return [];
        return [
          {
            id: entryPoint.id,
            question: entryPoint.question,
            snippet: entryPoint.snippet,
            tags: entryPoint.tags.join(' '),
            articleId,
            channels: article.channels,
            categoryId: article.categoryId,
          },
        ];
      }),
    );
    return { version, index };
  }

  async function indexOf(knowledgeBaseId: string): Promise<KnowledgeBaseIndex> {
    const version = await store.entryPointsVersion(knowledgeBaseId);
    const cached = await indexes.get(knowledgeBaseId)?.catch(() => undefined);
    if (cached?.version === version) return cached;
    const building = build(knowledgeBaseId, version);
    indexes.delete(knowledgeBaseId);
    indexes.set(knowledgeBaseId, building);
    if (indexes.size > cachedIndexes) indexes.delete(indexes.keys().next().value!);
    return building;
  }

  return {
    /** Matching questions, best first, of articles on `channel` and in `categoryId` when given. */
    async search(
      knowledgeBaseId: string,
      query: string,
      options: { limit: number; channel?: string; categoryId?: string },
    ): Promise<Array<{ entryPointId: string; articleId: string; score: number }>> {
      const { index } = await indexOf(knowledgeBaseId);
      return index
        .search(query, {
          filter: (result) =>
            isOnChannel({ channels: result.channels as ArticleChannel[] }, options.channel) &&
            (!options.categoryId || result.categoryId === options.categoryId),
        })
        .slice(0, options.limit)
        .map((result) => ({ entryPointId: String(result.id), articleId: result.articleId as string, score: result.score }));
    },
  };
}

export type QuestionSearch = ReturnType<typeof createQuestionSearch>;
