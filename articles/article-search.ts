import type { ChunkIndex } from '#knowledge/chunk-index.js';
import { helpCenterIntegrationId } from './types.js';

/**
 * Passages ranked per query: the ranking (and so the total) covers the articles among the best
 * 1,000 matching passages. A broader search than that is no search a reader pages through, and
 * ranking all of a large help centre's passages for it takes seconds.
 */
const maxPassages = 1_000;

/**
 * Keyword search over the help centre's articles, ranked by relevance (BM25 over title, excerpt and
 * body). Published articles are ingested into their knowledge base as ARTICLE sources, so this
 * searches those passages: an article is found once its ingestion has finished, a moment after
 * it is published. Callers still check that each article is public now.
 */
export function createArticleSearch(chunkIndex: Pick<ChunkIndex, 'keywordSearch'>) {
  return {
    /** Article ids, best first, each once. */
    async rank(knowledgeBaseId: string, query: string): Promise<string[]> {
      const hits = await chunkIndex.keywordSearch(knowledgeBaseId, query, {
        integrationId: helpCenterIntegrationId,
        limit: maxPassages,
      });
      return [...new Set(hits.map((hit) => hit.externalId))];
    },
  };
}

export type ArticleSearch = ReturnType<typeof createArticleSearch>;
