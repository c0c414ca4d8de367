import { dayOf, daysBetween } from '#insights/day-counters.js';
import type { DayRange } from '#insights/content-gaps/results.js';
import { invalidPayload } from './errors.js';

/**
 * The days an insights route counts, from its `from` and `to` query parameters (UTC days, both
 * included, already checked as dates by the query schema): by default the last `defaultDays` days up
 * to today; `from` after `to` or a range longer than `maxDays` is a 400.
 */
export function dayRangeOf(
  query: { from?: string; to?: string },
  today: Date,
  { defaultDays, maxDays }: { defaultDays: number; maxDays: number },
): DayRange {
  const to = query.to ?? dayOf(today);
  const from = query.from ?? dayOf(Date.parse(`${to}T00:00:00Z`) - (defaultDays - 1) * 86_400_000);
  if (from > to) throw invalidPayload('`from` is after `to`.', [{ path: '/from', message: `must be on or before ${to}` }]);
  const days = daysBetween(from, to).length;
  if (days > maxDays)
    throw invalidPayload(`The range is ${days} days long; at most ${maxDays}.`, [
      { path: '/to', message: `must be at most ${maxDays - 1} days after from` },
    ]);
  return { from, to };
}
