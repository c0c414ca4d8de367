/** Entry points (the questions an article answers): one by id, those of the public articles, and their version. */
import type { RedisClient } from '#platform/redis.js';
import type { ArticleKeys } from './redis-keys.js';
import type { EntryPoint } from './types.js';

/** The entry-point methods of the article store. */
export function entryPointMethods(redis: RedisClient, keys: ArticleKeys) {
  return {
    async findEntryPoint(
      entryPointId: string,
    ): Promise<{ entryPoint: EntryPoint; articleId: string; knowledgeBaseId: string } | undefined> {
      const hash = await redis.hGetAll(keys.entryPoint(entryPointId));
      if (!hash.entryPoint || !hash.articleId || !hash.knowledgeBaseId) return undefined;
      return {
        entryPoint: JSON.parse(hash.entryPoint) as EntryPoint,
        articleId: hash.articleId,
        knowledgeBaseId: hash.knowledgeBaseId,
      };
    },

    /** The entry points of the knowledge base's published public articles, in no particular order. */
    async publicEntryPoints(knowledgeBaseId: string): Promise<Array<{ entryPoint: EntryPoint; articleId: string }>> {
      const values = await redis.hVals(keys.publicEntryPoints(knowledgeBaseId));
      return values.map((value) => JSON.parse(value) as { entryPoint: EntryPoint; articleId: string });
    },

    /**
     * Bumped by every write of an article that is or was published and public (so also when only
     * its channels or category change): a cache of `publicEntryPoints` rebuilds when it moves.
     */
    async entryPointsVersion(knowledgeBaseId: string): Promise<number> {
      return Number((await redis.get(keys.entryPointsVersion(knowledgeBaseId))) ?? 0);
    },

    /** Moves whenever a public list page of the knowledge base could change: a cache key for pages. */
    async listVersion(knowledgeBaseId: string): Promise<number> {
      return Number((await redis.get(keys.listVersion(knowledgeBaseId))) ?? 0);
    },
  };
}
