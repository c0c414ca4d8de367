import { createHash } from 'node:crypto';
import type { ChunkIndex } from '#knowledge/chunk-index.js';
import type { JobStore } from '#knowledge/jobs.js';
import type { SourceStore } from '#knowledge/sources.js';
import { jobIdOf, sourceKeyOf } from '#workflows/ids.js';
import { articleContent } from './ai-feed.js';
import { matchOwnText, queryWords, type OwnTextMatch } from './own-text-match.js';
import type { ArticleStore, PendingEntry } from './store.js';
import { helpCenterIntegrationId, isPublic, type Article } from './types.js';

/**
 * Passages ranked per query: the ranking (and so the total) covers the articles among the best
 * 1,000 matching passages. A broader search than that is no search a reader pages through, and
 * ranking all of a large help centre's passages for it takes seconds.
 */
const maxPassages = 1_000;

export interface ArticleSearchDeps {
  chunkIndex: Pick<ChunkIndex, 'keywordSearch'>;
  articles: Pick<ArticleStore, 'searchPending' | 'settleSearchPending' | 'getArticles'>;
  /** The articles' ingestion jobs and source records, which tell whether their passages are in. */
  jobs: Pick<JobStore, 'get'>;
  sources: Pick<SourceStore, 'get'>;
}

/**
 * The public articles of a knowledge base whose passages do not hold their latest write yet, which
 * search matches on their own text, and `key`, naming them for a cache ('' for none).
 */
export interface PendingArticles {
  articles: Article[];
  key: string;
}

/**
 * Keyword search over the help centre's articles, ranked by relevance (BM25 over title, excerpt and
 * body). Published articles are ingested into their knowledge base as ARTICLE sources, so this
 * searches those passages; but an article is listed the moment it is written, and ingested a moment
 * to seconds later. Until its passages hold its latest write (a new article has none, an edited one
 * the words it had), it is matched on its own text instead (`own-text-match.ts`), so search finds
 * what the list shows, as it is now. Only those articles are read: the store keeps them in a small
 * set (`search-pending.ts`), which `pending` prunes as their ingestion catches up. Callers still
 * check that each article is public now (an unpublished one leaves the public indexes at once).
 */
export function createArticleSearch({ chunkIndex, articles, jobs, sources }: ArticleSearchDeps) {
  /**
   * Whether the article's passages are of this very write: its ingestion job is `searchable` (the
   * status of the version accepted last; written once the older passages are deleted too) and its
   * source record was written from this write. An article is written before it is handed to its
   * ingestion, so until then the job still tells of the previous write; the source's `updatedAt`
   * tells that apart.
   */
  async function caughtUp(article: Article): Promise<boolean> {
    const identity = { integrationId: helpCenterIntegrationId, externalId: article.id };
    const [job, source] = await Promise.all([
      jobs.get(article.tenantId, jobIdOf(identity)),
      sources.get(article.tenantId, sourceKeyOf(identity)),
    ]);
    return (
      job?.status === 'searchable' &&
      source?.knowledgeBaseId === article.knowledgeBaseId &&
      source.sourceData?.updatedAt === article.updatedAt
    );
  }

  return {
    /**
     * The articles to match on their own text now. Entries whose article has caught up (or is no
     * longer public) leave the set, unless the article was written again meanwhile. Read it after
     * the knowledge base's list version, and rank with what it answered: a page kept under both
     * then shows what that version shows, as the set only shrinks until the version moves.
     */
    async pending(knowledgeBaseId: string): Promise<PendingArticles> {
      const entries = await articles.searchPending(knowledgeBaseId);
      if (entries.length === 0) return { articles: [], key: '' };
      const found = await articles.getArticles(entries.map((entry) => entry.id));
      const waiting = await Promise.all(
        found.map(async (article) => (article && isPublic(article) && !(await caughtUp(article)) ? article : undefined)),
      );
      const settled: PendingEntry[] = entries.filter((_, i) => waiting[i] === undefined);
      await articles.settleSearchPending(knowledgeBaseId, settled);
      const list = waiting.filter((article): article is Article => article !== undefined);
      const ids = list.map((article) => article.id).sort();
      return { articles: list, key: ids.length === 0 ? '' : createHash('sha256').update(ids.join(',')).digest('base64url') };
    },

    /**
     * Article ids, best first, each once. The passages rank every article but the pending ones,
     * whose passages (if any) are of an older write and left out. A pending article holding every
     * word of the query comes before them, one holding some after them, each group by how much it
     * holds: the two rankings have no common scale, and a whole match is what BM25 ranks high.
     */
    async rank(knowledgeBaseId: string, query: string, pending: PendingArticles): Promise<string[]> {
      const hits = await chunkIndex.keywordSearch(knowledgeBaseId, query, {
        integrationId: helpCenterIntegrationId,
        limit: maxPassages,
      });
      const pendingIds = new Set(pending.articles.map((article) => article.id));
      const passages = [...new Set(hits.map((hit) => hit.externalId))].filter((id) => !pendingIds.has(id));
      if (pendingIds.size === 0) return passages;

      const words = queryWords(query);
      const matches = pending.articles
        .map((article) => ({
          id: article.id,
          match: matchOwnText(words, { title: article.title, content: articleContent(article) }),
        }))
        .filter((entry): entry is { id: string; match: OwnTextMatch } => entry.match !== undefined)
        .sort((a, b) => b.match.words - a.match.words || b.match.weight - a.match.weight || a.id.localeCompare(b.id));
      const whole = matches.filter((entry) => entry.match.words === words.length).map((entry) => entry.id);
      const partial = matches.filter((entry) => entry.match.words < words.length).map((entry) => entry.id);
      return [...whole, ...passages, ...partial];
    },
  };
}

export type ArticleSearch = ReturnType<typeof createArticleSearch>;
