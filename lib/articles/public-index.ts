/**
 * The public indexes: pages of the published public articles by channel, category and featured
 * filters (sorted sets scored by `publishedAt`, newest first), membership checks and category counts.
 */
import type { RedisClient } from '#platform/redis.js';
import type { ArticleKeys } from './redis-keys.js';
import { runScript } from '#platform/redis-scripts.js';

export interface ListFilter {
  /** A concrete channel: articles on it or on `ALL`. `ALL` or absent: no channel filter. */
  channel?: string;
  categoryId?: string;
  /** `true`: featured articles only; `false`: only the others; absent: no filter. */
  featured?: boolean;
}

/**
 * A page of the members of every set in KEYS, newest first, and their exact number. ARGV: offset,
 * limit. Walks the smallest set in score order and keeps the members the others hold too; a member
 * has the same score (its `publishedAt`) in every public set, so this is the order of the intersection.
 */
const intersectionPageScript = `
local smallest, size = 1, redis.call('ZCARD', KEYS[1])
for i = 2, #KEYS do
  local n = redis.call('ZCARD', KEYS[i])
  if n < size then smallest, size = i, n end
end
local offset, limit = tonumber(ARGV[1]), tonumber(ARGV[2])
local ids, total = {}, 0
for _, id in ipairs(redis.call('ZRANGE', KEYS[smallest], 0, -1, 'REV')) do
  local inAll = true
  for i = 1, #KEYS do
    if i ~= smallest and not redis.call('ZSCORE', KEYS[i], id) then
      inAll = false
      break
    end
  end
  if inAll then
    if total >= offset and total < offset + limit then ids[#ids + 1] = id end
    total = total + 1
  end
end
return {ids, total}
`;

/** The public-index methods of the article store. */
export function publicIndexMethods(redis: RedisClient, keys: ArticleKeys) {
  /** The public sets a filter narrows to (none: all public articles). */
  function filterKeys(knowledgeBaseId: string, filter: ListFilter): string[] {
    return [
      ...(filter.channel && filter.channel !== 'ALL' ? [keys.publicChannel(knowledgeBaseId, filter.channel)] : []),
      ...(filter.categoryId ? [keys.publicCategory(knowledgeBaseId, filter.categoryId)] : []),
      ...(filter.featured === undefined ? [] : [keys.publicFeatured(knowledgeBaseId, filter.featured)]),
    ];
  }

  return {
    /**
     * A page of the published public articles, newest published first, with the exact number of
     * matches. Two or more filters are intersected by a script that walks the smallest of their sets.
     */
    async listPublic(
      knowledgeBaseId: string,
      filter: ListFilter,
      page: { offset: number; limit: number },
    ): Promise<{ ids: string[]; total: number }> {
      const sets = filterKeys(knowledgeBaseId, filter);
      const offset = Math.max(0, page.offset);
      if (sets.length <= 1) {
        const key = sets[0] ?? keys.publicAll(knowledgeBaseId);
        if (page.limit <= 0) return { ids: [], total: await redis.zCard(key) };
        const [ids, total] = await redis
          .multi()
          .zRange(key, offset, offset + page.limit - 1, { REV: true })
          .zCard(key)
          .exec();
        return { ids: ids as unknown as string[], total: Number(total) };
      }
      const limit = Math.max(0, page.limit);
      const [ids, total] = (await runScript(redis, intersectionPageScript, sets, [String(offset), String(limit)])) as [
        string[],
        number,
      ];
      return { ids, total: Number(total) };
    },

    /** Whether each article is published and public in the knowledge base, in one round trip. */
    async arePublic(knowledgeBaseId: string, ids: string[]): Promise<boolean[]> {
      if (ids.length === 0) return [];
      return (await redis.zmScore(keys.publicAll(knowledgeBaseId), ids)).map((score) => score !== null);
    },

    /** Whether each article is public and passes the filter (results of a search), in one round trip. */
    async matchesFilter(knowledgeBaseId: string, ids: string[], filter: ListFilter): Promise<boolean[]> {
      if (ids.length === 0) return [];
      const sets = filterKeys(knowledgeBaseId, filter);
      const multi = redis.multi();
      for (const key of sets.length > 0 ? sets : [keys.publicAll(knowledgeBaseId)]) multi.zmScore(key, ids);
      const replies = (await multi.execAsPipeline()) as unknown as Array<Array<number | null>>;
      return ids.map((_, i) => replies.every((scores) => scores[i] !== null));
    },

    /** The number of published public articles directly in each category of the knowledge base. */
    async countPublicByCategory(knowledgeBaseId: string): Promise<Map<string, number>> {
      const ids = await redis.lRange(keys.categories(knowledgeBaseId), 0, -1);
      if (ids.length === 0) return new Map();
      const multi = redis.multi();
      for (const id of ids) multi.zCard(keys.publicCategory(knowledgeBaseId, id));
      const counts = await multi.execAsPipeline();
      return new Map(ids.map((id, i) => [id, Number(counts[i])]));
    },
  };
}
