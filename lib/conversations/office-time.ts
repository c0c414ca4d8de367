import { openTimeBetween } from '#tenancy/office-hours.js';
import type { Tenancy } from '#tenancy/index.js';
import type { ConversationRecords } from './records.js';

/**
 * How long a customer waited for a person, as the reports count it: within the office hours of the team
 * the conversation was routed to (a night and a weekend are not the team's wait), else the whole time.
 */
export function createOfficeTime({
  records,
  tenancy,
}: {
  records: Pick<ConversationRecords, 'get'>;
  tenancy: Pick<Tenancy, 'getTeam'>;
}) {
  return async function waitedMs(ref: { conversationId: string; tenantId: string }, from: Date, to: Date): Promise<number> {
    const teamId = (await records.get(ref.conversationId))?.teamId;
    const hours = teamId ? (await tenancy.getTeam(ref.tenantId, teamId))?.officeHours : undefined;
    return hours ? openTimeBetween(hours, from, to) : Math.max(0, to.getTime() - from.getTime());
  };
}

export type WaitedMs = ReturnType<typeof createOfficeTime>;
