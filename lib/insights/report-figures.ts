import type { Channel } from '#workflows/conversations/types.js';
import { counterFields, handoffReasons, type DayCounts, type HandoffReason } from './day-counters.js';

/**
 * One day's counters of one channel, read into figures: what every table of a report adds up.
 * Pure: counts in, figures out.
 */
export interface DayFigures {
  day: string;
  channel: Channel;
  started: number;
  closed: number;
  resolved: number;
  handedOff: number;
  abandoned: number;
  handoff: Record<HandoffReason, number>;
  answered: number;
  unknown: number;
  up: number;
  down: number;
  /** Scores given, by score: index 0 is score 1. */
  satisfaction: number[];
  /** First agent replies by histogram bucket (`firstReplyBucket`). */
  firstReply: Map<number, number>;
}

export const satisfactionScores = [1, 2, 3, 4, 5] as const;

export function dayFiguresOf(day: string, channel: Channel, counts: DayCounts): DayFigures {
  const count = (field: string) => counts[field] ?? 0;
  const bucketPrefix = `first_reply:${channel}:b`;
  const firstReply = new Map<number, number>();
  for (const [field, value] of Object.entries(counts)) {
    if (!field.startsWith(bucketPrefix) || value <= 0) continue;
    const bucket = Number(field.slice(bucketPrefix.length));
    if (Number.isInteger(bucket) && bucket >= 0) firstReply.set(bucket, value);
  }
  return {
    day,
    channel,
    started: count(counterFields.started(channel)),
    closed: count(counterFields.closed(channel)),
    resolved: count(counterFields.outcome(channel, 'resolved')),
    handedOff: count(counterFields.outcome(channel, 'handed_off')),
    abandoned: count(counterFields.outcome(channel, 'abandoned')),
    handoff: Object.fromEntries(handoffReasons.map((by) => [by, count(counterFields.handoff(channel, by))])) as Record<
      HandoffReason,
      number
    >,
    answered: count(counterFields.answers(channel, 'answered')),
    unknown: count(counterFields.answers(channel, 'unknown')),
    up: count(counterFields.feedback(channel, 'up')),
    down: count(counterFields.feedback(channel, 'down')),
    satisfaction: satisfactionScores.map((score) => count(counterFields.satisfaction(channel, score))),
    firstReply,
  };
}

/** The scores given and their average (two decimals), or null when none was. */
export function satisfactionSummary(distribution: number[]): { count: number; average: number | null } {
  const count = sum(distribution);
  const total = distribution.reduce((acc, n, index) => acc + n * (index + 1), 0);
  return { count, average: count === 0 ? null : round(total / count, 2) };
}

/** `part / whole` to four decimals, or null when the whole is nothing. */
export function share(part: number, whole: number): number | null {
  return whole === 0 ? null : round(part / whole, 4);
}

export function sum(values: number[]): number {
  return values.reduce((acc, value) => acc + value, 0);
}

function round(value: number, digits: number): number {
  return Math.round(value * 10 ** digits) / 10 ** digits;
}
