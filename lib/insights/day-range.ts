import { dayOf, daysBetween } from './day-counters.js';

/** UTC days `YYYY-MM-DD`, both included. */
export interface DayRange {
  from: string;
  to: string;
}

/** Every insight (reports, content gaps) covers the last 30 days unless told otherwise, and at most 366. */
export const insightRange = { defaultDays: 30, maxDays: 366 } as const;

/**
 * The days asked for by `from` and `to` (already checked as dates): by default the last
 * `defaultDays` days up to `to`, or up to today; `from` after `to`, or a range longer than
 * `maxDays`, is a problem naming the parameter to change.
 */
export function dayRangeOf(
  query: { from?: string; to?: string },
  today: Date,
): { range: DayRange } | { problem: { path: string; message: string } } {
  const to = query.to ?? dayOf(today);
  const from = query.from ?? dayOf(Date.parse(`${to}T00:00:00Z`) - (insightRange.defaultDays - 1) * 86_400_000);
  if (from > to) return { problem: { path: '/from', message: `must be on or before \`to\` (${to})` } };
  const days = daysBetween(from, to).length;
  if (days > insightRange.maxDays)
    return { problem: { path: '/to', message: `must be at most ${insightRange.maxDays} days from \`from\` (${days} asked)` } };
  return { range: { from, to } };
}
