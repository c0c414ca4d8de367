import { dayRangeOf, type DayRange } from '#insights/day-range.js';
import type { CounterOwner } from '#insights/day-counters.js';
import type { Tenancy } from '#tenancy/index.js';
import { invalidPayload, notFound } from './errors.js';

/** The days an insights route covers, from its `from` and `to` (`lib/insights/day-range.ts`); a 400 when they make none. */
export function requestedDays(query: { from?: string; to?: string }, today: Date): DayRange {
  const found = dayRangeOf(query, today);
  if ('problem' in found) {
    const { path, message } = found.problem;
    throw invalidPayload(`The query is invalid: ${path} ${message}.`, [{ path, message }]);
  }
  return found.range;
}

/** Whose insights: an operator of the user's own tenant; any other (another tenant's, or none) is 404. */
export async function operatorOwner(
  tenancy: Pick<Tenancy, 'getOperator'>,
  tenantId: string,
  operatorId: string,
): Promise<CounterOwner> {
  const operator = await tenancy.getOperator(operatorId);
  if (!operator || operator.tenantId !== tenantId) throw notFound(`No operator ${operatorId} in this tenant.`);
  return { tenantId: operator.tenantId, operatorId: operator.id };
}
