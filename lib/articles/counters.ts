/**
 * Article and entry-point counters: views and helpfulness votes of an article, matches and clicks of
 * an entry point, and the entry points of the public articles ranked by matches. Exact under concurrency.
 */
import type { RedisClient } from '#platform/redis.js';
import type { ArticleKeys } from './redis-keys.js';
import type { Helpfulness } from './types.js';
import { incrementClicked, incrementMatched } from './write-scripts.js';

function helpfulnessOf([helpful, notHelpful]: Array<string | null>): Helpfulness {
  return { helpfulCount: Number(helpful ?? 0), notHelpfulCount: Number(notHelpful ?? 0) };
}

/** The counter methods of the article store. */
export function counterMethods(redis: RedisClient, keys: ArticleKeys) {
  return {
    incrementViews: (articleId: string): Promise<number> => redis.hIncrBy(keys.counters(articleId), 'views', 1),

    /** Counts a vote; the knowledge base's list pages show the counts, so their version moves too. */
    async recordFeedback(article: { id: string; knowledgeBaseId: string }, isHelpful: boolean): Promise<Helpfulness> {
      const key = keys.counters(article.id);
      const [, counts] = await redis
        .multi()
        .hIncrBy(key, isHelpful ? 'helpful' : 'notHelpful', 1)
        .hmGet(key, ['helpful', 'notHelpful'])
        .incr(keys.listVersion(article.knowledgeBaseId))
        .exec();
      return helpfulnessOf(counts as unknown as Array<string | null>);
    },

    async helpfulnessOf(articleIds: string[]): Promise<Helpfulness[]> {
      if (articleIds.length === 0) return [];
      const multi = redis.multi();
      for (const id of articleIds) multi.hmGet(keys.counters(id), ['helpful', 'notHelpful']);
      return ((await multi.execAsPipeline()) as unknown as Array<Array<string | null>>).map(helpfulnessOf);
    },

    async viewsOf(articleIds: string[]): Promise<number[]> {
      if (articleIds.length === 0) return [];
      const multi = redis.multi();
      for (const id of articleIds) multi.hGet(keys.counters(id), 'views');
      return ((await multi.execAsPipeline()) as unknown as Array<string | null>).map((views) => Number(views ?? 0));
    },

    /**
     * Counts a match of an entry point of a public article of the knowledge base and ranks it by its
     * count; returns the new count, or 0 (nothing recorded) for any other entry point.
     */
    async recordMatched(knowledgeBaseId: string, entryPointId: string): Promise<number> {
      return incrementMatched(
        redis,
        {
          entryPointKey: keys.entryPoint(entryPointId),
          publicEntryPointsKey: keys.publicEntryPoints(knowledgeBaseId),
          popularKey: keys.popular(knowledgeBaseId),
        },
        entryPointId,
      );
    },

    /** Counts a click on an entry point; returns the new count, or 0 for an unknown entry point. */
    async recordClicked(entryPointId: string): Promise<number> {
      return incrementClicked(redis, keys.entryPoint(entryPointId));
    },

    /** The most matched entry points of the knowledge base's public articles, best first. */
    async popularEntryPoints(knowledgeBaseId: string, limit: number): Promise<Array<{ entryPointId: string; matched: number }>> {
      if (limit <= 0) return [];
      const ranked = await redis.zRangeWithScores(keys.popular(knowledgeBaseId), 0, limit - 1, { REV: true });
      return ranked.map(({ value, score }) => ({ entryPointId: value, matched: score }));
    },
  };
}
