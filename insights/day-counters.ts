import { tagUnavailable } from '#platform/dependency-errors.js';
import type { RedisClient } from '#platform/redis.js';
import type { Channel } from '#workflows/conversation/types.js';

/**
 * An operator's insight counters: one Redis hash per operator and UTC day (fields in
 * docs/insights.md), and beside it a hash of the sources cited that day. Exact counts, a bounded
 * number of keys (one pair per day with activity, each expiring 400 days after its day), and a
 * report over any range reads them in one pipelined round trip.
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
  };
}

/** One day's counters as read: field → count. */
export type DayCounts = Record<string, number>;

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
      for (const source of sources) writes.hIncrBy(key, source.key, 1);
      writes.expireAt(key, dayExpiry(day));
      writes.hSet(keys.sourceTitles(owner), Object.fromEntries(sources.map((source) => [source.key, source.title])));
      await writes.expireAt(keys.sourceTitles(owner), dayExpiry(day)).exec();
    },

    /** Each day's counters and citations in the range, in one round trip; a day with none reads as empty. */
    async read(
      owner: CounterOwner,
      days: string[],
    ): Promise<{ days: { day: string; counts: DayCounts; citations: DayCounts }[]; titles: Record<string, string> }> {
      const reads = redis.multi();
      for (const day of days) reads.hGetAll(keys.day(owner, day)).hGetAll(keys.daySources(owner, day));
      reads.hGetAll(keys.sourceTitles(owner));
      const replies = (await reads.exec()) as unknown as Record<string, string>[];
      return {
        days: days.map((day, index) => ({
          day,
          counts: numbers(replies[index * 2]!),
          citations: numbers(replies[index * 2 + 1]!),
        })),
        titles: replies.at(-1) ?? {},
      };
    },
  });
}

export type DayCounters = ReturnType<typeof createDayCounters>;

function numbers(hash: Record<string, string>): DayCounts {
  return Object.fromEntries(Object.entries(hash).map(([field, value]) => [field, Number(value)]));
}
