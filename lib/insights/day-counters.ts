import { tagUnavailable } from '#platform/dependency-errors.js';
import type { RedisClient } from '#platform/redis.js';
import type { Channel } from '#workflows/conversations/types.js';

/**
 * An operator's insight counters: one Redis hash per operator and UTC day (fields in
 * docs/insights.md), and beside it a sorted set of the sources cited that day (score: citations).
 * Exact counts, a bounded number of keys (one pair per day with activity, each expiring 400 days
 * after its day), and a report over any range reads them in one pipelined round trip: the day
 * hashes, and the most cited sources summed in Redis, so only those few leave it.
 */

/** Days a day's counters are kept after the day: 13 months and more. */
export const keptDays = 400;

export type Outcome = 'resolved' | 'handed_off' | 'abandoned';
export const outcomes: readonly Outcome[] = ['resolved', 'handed_off', 'abandoned'];
export type HandoffReason = 'visitor' | 'ai' | 'agent';
export const handoffReasons: readonly HandoffReason[] = ['visitor', 'ai', 'agent'];
export type Rating = 'up' | 'down';

/** Whose counters: an operator of a tenant. */
export interface CounterOwner {
  tenantId: string;
  operatorId: string;
}

/** The field names of a day's hash. */
export const counterFields = {
  started: (channel: Channel) => `started:${channel}`,
  closed: (channel: Channel) => `closed:${channel}`,
  outcome: (channel: Channel, outcome: Outcome) => `outcome:${channel}:${outcome}`,
  handoff: (channel: Channel, by: HandoffReason) => `handoff:${channel}:${by}`,
  answers: (channel: Channel, outcome: 'answered' | 'unknown') => `answers:${channel}:${outcome}`,
  feedback: (channel: Channel, rating: Rating) => `feedback:${channel}:${rating}`,
  satisfaction: (channel: Channel, score: number) => `satisfaction:${channel}:${score}`,
  firstReply: (channel: Channel, seconds: number) => `first_reply:${channel}:b${firstReplyBucket(seconds)}`,
};

/** The UTC day of a moment, `YYYY-MM-DD`. */
export function dayOf(at: Date | number): string {
  return new Date(at).toISOString().slice(0, 10);
}

/** Every day from `from` to `to` (both `YYYY-MM-DD`, inclusive), in order. */
export function daysBetween(from: string, to: string): string[] {
  const days: string[] = [];
  for (let at = Date.parse(`${from}T00:00:00Z`); at <= Date.parse(`${to}T00:00:00Z`); at += 86_400_000) days.push(dayOf(at));
  return days;
}

/** First-reply histogram buckets are geometric and 10% wide: bucket k holds (1.1^(k-1), 1.1^k] seconds. */
const bucketGrowth = 1.1;

export function firstReplyBucket(seconds: number): number {
  return Math.max(0, Math.ceil(Math.log(Math.max(1, seconds)) / Math.log(bucketGrowth) - 1e-9));
}

/** The seconds a bucket stands for: its geometric middle, within 5% of any time in it. */
export function bucketSeconds(bucket: number): number {
  return bucket === 0 ? 1 : Math.sqrt(bucketGrowth ** (bucket - 1) * bucketGrowth ** bucket);
}

export function insightKeys(prefix: string) {
  const base = ({ tenantId, operatorId }: CounterOwner) => `${prefix}:insights:${tenantId}:${operatorId}`;
  return {
    day: (owner: CounterOwner, day: string) => `${base(owner)}:day:${day}`,
    daySources: (owner: CounterOwner, day: string) => `${base(owner)}:day:${day}:sources`,
    sourceTitles: (owner: CounterOwner) => `${base(owner)}:source-titles`,
    /** Where `topSourcesScript` sums a range; it exists only while the script runs. */
    topSourcesScratch: (owner: CounterOwner) => `${base(owner)}:top-sources-scratch`,
  };
}

/** One day's counters as read: field → count. */
export type DayCounts = Record<string, number>;

/** A source among the most cited in a range: its key, latest title (null when none was kept), citations. */
export interface CitedSourceTotal {
  key: string;
  title: string | null;
  citations: number;
}

/** What `read` answers: each day's counters, and the most cited sources over all the days. */
export interface CountersRead {
  days: { day: string; counts: DayCounts }[];
  topSources: CitedSourceTotal[];
}

/** The expiry of a day's keys, in epoch seconds. */
export function dayExpiry(day: string): number {
  return Math.ceil(Date.parse(`${day}T00:00:00Z`) / 1000) + (keptDays + 1) * 86_400;
}

export function createDayCounters(redis: Pick<RedisClient, 'multi'>, prefix: string) {
  const keys = insightKeys(prefix);

  return tagUnavailable('redis', {
    /** Adds to a day's counters: each field by its amount, or, given a list, 1 for each time it is named. */
    async add(owner: CounterOwner, day: string, fields: string[] | Record<string, number>): Promise<void> {
      const amounts: Record<string, number> = Array.isArray(fields) ? {} : fields;
      if (Array.isArray(fields)) for (const field of fields) amounts[field] = (amounts[field] ?? 0) + 1;
      const key = keys.day(owner, day);
      const writes = redis.multi();
      for (const [field, amount] of Object.entries(amounts)) writes.hIncrBy(key, field, amount);
      await writes.expireAt(key, dayExpiry(day)).exec();
    },

    /** Counts citations of sources on a day, keeping each source's latest title. */
    async addCitations(owner: CounterOwner, day: string, sources: { key: string; title: string }[]): Promise<void> {
      if (sources.length === 0) return;
      const key = keys.daySources(owner, day);
      const writes = redis.multi();
      for (const source of sources) writes.zIncrBy(key, 1, source.key);
      writes.expireAt(key, dayExpiry(day));
      writes.hSet(keys.sourceTitles(owner), Object.fromEntries(sources.map((source) => [source.key, source.title])));
      await writes.expireAt(keys.sourceTitles(owner), dayExpiry(day)).exec();
    },

    /**
     * Each day's counters in the range (a day with none reads as empty) and, given `topSources`,
     * that many of the sources most cited over the range with their totals (ties by key) and latest
     * titles: one round trip, summed in Redis, whatever the number of sources cited.
     */
    async read(owner: CounterOwner, days: string[], { topSources = 0 }: { topSources?: number } = {}): Promise<CountersRead> {
      const reads = redis.multi();
      for (const day of days) reads.hGetAll(keys.day(owner, day));
      const ranked = topSources > 0 && days.length > 0;
      if (ranked)
        reads.eval(topSourcesScript, {
          keys: [keys.sourceTitles(owner), keys.topSourcesScratch(owner), ...days.map((day) => keys.daySources(owner, day))],
          arguments: [String(topSources)],
        });
      const replies = (await reads.exec()) as unknown[];
      return {
        days: days.map((day, index) => ({ day, counts: numbers(replies[index] as Record<string, string>) })),
        topSources: ranked ? rankedSources(replies.at(-1) as [string[], (string | null)[]]) : [],
      };
    },
  });
}

export type DayCounters = ReturnType<typeof createDayCounters>;

function numbers(hash: Record<string, string>): DayCounts {
  return Object.fromEntries(Object.entries(hash).map(([field, value]) => [field, Number(value)]));
}

/**
 * The most cited sources over some days. KEYS: the titles hash, a scratch key, each day's sorted
 * set. ARGV: how many. The days are summed with weight -1, so ascending order is most cited first
 * and, within a score, by key (Redis orders equal scores by member); the scratch key is gone when
 * the script ends. Answers [the flat `member, -citations` list, the members' titles].
 */
const topSourcesScript = `
local union = {KEYS[2], #KEYS - 2}
for i = 3, #KEYS do union[#union + 1] = KEYS[i] end
union[#union + 1] = 'WEIGHTS'
for i = 3, #KEYS do union[#union + 1] = -1 end
redis.call('ZUNIONSTORE', unpack(union))
local top = redis.call('ZRANGE', KEYS[2], 0, tonumber(ARGV[1]) - 1, 'WITHSCORES')
redis.call('DEL', KEYS[2])
local members = {}
for i = 1, #top, 2 do members[#members + 1] = top[i] end
if #members == 0 then return {top, {}} end
return {top, redis.call('HMGET', KEYS[1], unpack(members))}`;

function rankedSources([top, titles]: [string[], (string | null)[]]): CitedSourceTotal[] {
  return titles.map((title, index) => ({ key: top[index * 2]!, title, citations: -Number(top[index * 2 + 1]) }));
}
