import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { runScript } from '#platform/redis-scripts.js';
import { tagUnavailable } from '#platform/dependency-errors.js';
import type { RedisClient } from '#platform/redis.js';
import type { AddressedMark, ClusterDetail, ClusterResults, Gap, GapOwner } from './types.js';

/**
 * An operator's content gaps in Redis (docs/insights.md, "Content gaps"), beside the day counters
 * (`{prefix}:insights:{tenantId}:{operatorId}:…`):
 *  - `gaps`: hash, gap id → the gap as JSON (its vector in base64); `gaps:by-time`: sorted set of
 *    ids by time asked; `gaps:seq`: how many were ever recorded (what the clustering covered up to);
 *  - `gaps:clusters`: the latest clustering's result (JSON), which the API reads, and
 *    `gaps:cluster-details` (hash, cluster id → its centre and members), written with it in one
 *    transaction;
 *  - `gaps:addressed`: hash, cluster id → the owner's mark.
 * A gap is kept 13 months; past 50,000 the oldest go. Every key expires 13 months after its last write.
 */

/** Days a gap is kept: 13 months. */
export const gapRetentionDays = 396;
export const maxGapsPerOperator = 50_000;
const retentionSeconds = gapRetentionDays * 86_400;
/** Gaps read per round trip when loading an operator's. */
const loadBatch = 2_000;

export function contentGapKeys(prefix: string) {
  const base = ({ tenantId, operatorId }: GapOwner) => `${prefix}:insights:${tenantId}:${operatorId}:gaps`;
  return {
    gaps: base,
    byTime: (owner: GapOwner) => `${base(owner)}:by-time`,
    seq: (owner: GapOwner) => `${base(owner)}:seq`,
    clusters: (owner: GapOwner) => `${base(owner)}:clusters`,
    details: (owner: GapOwner) => `${base(owner)}:cluster-details`,
    addressed: (owner: GapOwner) => `${base(owner)}:addressed`,
  };
}

/**
 * Adds a gap once (a gap id already there is left as it is), then drops what is past the retention
 * or over the cap, oldest first. Returns 1 when added.
 */
const addScript = `
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1])
redis.call('INCR', KEYS[3])
local expired = redis.call('ZCOUNT', KEYS[2], '-inf', '(' .. ARGV[4])
local over = redis.call('ZCARD', KEYS[2]) - expired - tonumber(ARGV[5])
local dropped = expired + math.max(0, over)
if dropped > 0 then
  local ids = redis.call('ZRANGE', KEYS[2], 0, dropped - 1)
  for i = 1, #ids, 1000 do
    redis.call('HDEL', KEYS[1], unpack(ids, i, math.min(i + 999, #ids)))
  end
  redis.call('ZREMRANGEBYRANK', KEYS[2], 0, dropped - 1)
end
for i = 1, 3 do redis.call('EXPIRE', KEYS[i], ARGV[6]) end
return 1
`;

export function createContentGapStore(
  redis: RedisClient,
  prefix: string,
  { maxGaps = maxGapsPerOperator, now = () => new Date() }: { maxGaps?: number; now?: () => Date } = {},
) {
  const keys = contentGapKeys(prefix);

  return tagUnavailable('redis', {
    /** Stores a gap unless one of its id is there; true when added. */
    async add(owner: GapOwner, gap: Gap): Promise<boolean> {
      const cutoff = now().getTime() - retentionSeconds * 1000;
      const added = await runScript(
        redis,
        addScript,
        [keys.gaps(owner), keys.byTime(owner), keys.seq(owner)],
        [gap.id, JSON.stringify(gap), String(Date.parse(gap.askedAt)), String(cutoff), String(maxGaps), String(retentionSeconds)],
      );
      return added === 1;
    },

    /** Every gap kept (within the retention), oldest first, and the recording sequence they cover. */
    async load(owner: GapOwner): Promise<{ gaps: Gap[]; seq: number }> {
      const cutoff = now().getTime() - retentionSeconds * 1000;
      // The sequence first: a gap recorded meanwhile is then counted pending, never covered unseen.
      const seq = Number((await redis.get(keys.seq(owner))) ?? 0);
      const ids = await redis.zRangeByScore(keys.byTime(owner), cutoff, '+inf');
      const reads = redis.multi();
      for (let i = 0; i < ids.length; i += loadBatch) reads.hmGet(keys.gaps(owner), ids.slice(i, i + loadBatch));
      const batches = ids.length === 0 ? [] : ((await reads.exec()) as unknown as (string | null)[][]);
      // Parsed a batch at a time, yielding between: 50,000 gaps are 125 MB of JSON, which parsed at once
      // would hold the event loop for a third of a second (the clustering thread's, in the worker).
      const gaps: Gap[] = [];
      for (const batch of batches) {
        for (const json of batch) if (json) gaps.push(JSON.parse(json) as Gap);
        await yieldToEventLoop();
      }
      return { gaps, seq };
    },

    /** Gaps recorded in all. */
    async recorded(owner: GapOwner): Promise<number> {
      return Number((await redis.get(keys.seq(owner))) ?? 0);
    },

    /** Replaces the clustering's result and the clusters' details, in one transaction. */
    async saveClusters(owner: GapOwner, results: ClusterResults, details: Map<string, ClusterDetail>): Promise<void> {
      const writes = redis.multi();
      writes.set(keys.clusters(owner), JSON.stringify(results), { EX: retentionSeconds });
      writes.del(keys.details(owner));
      if (details.size > 0) {
        writes.hSet(keys.details(owner), Object.fromEntries([...details].map(([id, detail]) => [id, JSON.stringify(detail)])));
        writes.expire(keys.details(owner), retentionSeconds);
      }
      await writes.exec();
    },

    /** The latest clustering's result and how many gaps were recorded in all (one round trip). */
    async readClusters(
      owner: GapOwner,
    ): Promise<{ results: ClusterResults | undefined; recorded: number; marks: AddressedMark[] }> {
      const [results, recorded, marks] = (await redis
        .multi()
        .get(keys.clusters(owner))
        .get(keys.seq(owner))
        .hVals(keys.addressed(owner))
        .exec()) as unknown as [string | null, string | null, string[]];
      return {
        results: results ? (JSON.parse(results) as ClusterResults) : undefined,
        recorded: Number(recorded ?? 0),
        marks: marks.map((mark) => JSON.parse(mark) as AddressedMark),
      };
    },

    async clusterDetail(owner: GapOwner, clusterId: string): Promise<ClusterDetail | undefined> {
      const json = await redis.hGet(keys.details(owner), clusterId);
      return json ? (JSON.parse(json) as ClusterDetail) : undefined;
    },

    async marks(owner: GapOwner): Promise<AddressedMark[]> {
      return (await redis.hVals(keys.addressed(owner))).map((mark) => JSON.parse(mark) as AddressedMark);
    },

    async mark(owner: GapOwner, clusterId: string): Promise<AddressedMark | undefined> {
      const json = await redis.hGet(keys.addressed(owner), clusterId);
      return json ? (JSON.parse(json) as AddressedMark) : undefined;
    },

    async setMark(owner: GapOwner, mark: AddressedMark): Promise<void> {
      await redis
        .multi()
        .hSet(keys.addressed(owner), mark.clusterId, JSON.stringify(mark))
        .expire(keys.addressed(owner), retentionSeconds)
        .exec();
    },

    /** Removes a mark; false when there was none. */
    async removeMark(owner: GapOwner, clusterId: string): Promise<boolean> {
      return (await redis.hDel(keys.addressed(owner), clusterId)) === 1;
    },
  });
}

export type ContentGapStore = ReturnType<typeof createContentGapStore>;
