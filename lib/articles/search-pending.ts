/**
 * The articles search cannot yet find through the knowledge base's passages: every write of a public
 * article puts it in a sorted set of its knowledge base, scored by the revision written, in the
 * same script that lists it (`article-writes.ts`), so nothing the public list shows escapes the set;
 * taking it public out removes it. Search (`article-search.ts`) settles an entry once the article's
 * ingestion has caught up with that write. The set holds only the articles written since their
 * ingestion last caught up: a handful, or the batch of a bulk publication while it is ingested.
 */
import type { RedisClient } from '#platform/redis.js';
import { runScript } from '#platform/redis-scripts.js';
import type { ArticleKeys } from './redis-keys.js';

/** An article in the set, with the revision of the write that put it there. */
export interface PendingEntry {
  id: string;
  revision: number;
}

// Removes each id only while its score is still the revision read: a write since then (which
// scored it anew) keeps it, as its ingestion has that write still to catch up with.
const settleScript = `
local removed = 0
for i = 1, #ARGV, 2 do
  if tonumber(redis.call('ZSCORE', KEYS[1], ARGV[i]) or '-1') == tonumber(ARGV[i + 1]) then
    removed = removed + redis.call('ZREM', KEYS[1], ARGV[i])
  end
end
return removed`;

/** The search-pending methods of the article store. */
export function searchPendingMethods(redis: RedisClient, keys: ArticleKeys) {
  return {
    /** Every entry of the knowledge base's set (a few, unless a bulk publication is being ingested). */
    async searchPending(knowledgeBaseId: string): Promise<PendingEntry[]> {
      const entries = await redis.zRangeWithScores(keys.searchPending(knowledgeBaseId), 0, -1);
      return entries.map(({ value, score }) => ({ id: value, revision: score }));
    },

    /** Removes the entries whose article has not been written since they were read; how many it removed. */
    async settleSearchPending(knowledgeBaseId: string, entries: PendingEntry[]): Promise<number> {
      if (entries.length === 0) return 0;
      const args = entries.flatMap((entry) => [entry.id, String(entry.revision)]);
      return Number(await runScript(redis, settleScript, [keys.searchPending(knowledgeBaseId)], args));
    },
  };
}
