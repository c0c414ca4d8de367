import type { ConversationRecords } from '#conversations/records.js';
import type { SlaCounts, SlaOutcome } from '#insights/sla-counts.js';
import type { EventEmitter } from '#outbound-events/emitter.js';
import { slaBreached } from '#outbound-events/facts.js';
import { afterOpenTime } from '#tenancy/office-hours.js';
import type { Tenancy, Team } from '#tenancy/index.js';
import type { ConversationRef, SlaChange, SlaClock, SlaClocks, SlaMetric } from '#workflows/conversations/types.js';

export interface SlaActivityDeps {
  records: Pick<ConversationRecords, 'get' | 'setSla'>;
  tenancy: Pick<Tenancy, 'getTeam'>;
  counts: Pick<SlaCounts, 'count'>;
  outboundEvents?: Pick<EventEmitter, 'emit'>;
}

const targetOf: Record<SlaMetric, keyof NonNullable<Team['sla']>> = {
  firstResponse: 'firstResponseMinutes',
  nextResponse: 'nextResponseMinutes',
  resolution: 'resolutionMinutes',
};

/**
 * The conversation workflow's service-level step (docs/agent-inbox.md, "Office hours and SLAs"): it
 * starts clocks at the due time its team's targets give (in open time where the team has office hours),
 * counts a clock stopped in time as met and one that ran out as breached (each once: a step run again
 * counts nothing twice, and its `sla.breached` event has the same id), and leaves the inbox's badge and
 * order by time left. The workflow keeps the clocks and sets its timers from what this returns.
 */
export function createSlaActivities({ records, tenancy, counts, outboundEvents }: SlaActivityDeps) {
  return {
    async trackSla(input: { conversation: ConversationRef; change: SlaChange; clocks: SlaClocks }): Promise<SlaClocks> {
      const { conversation: ref, change } = input;
      const clocks: SlaClocks = structuredClone(input.clocks);
      const record = await records.get(ref.conversationId);
      const teamId = record?.teamId ?? null;
      const team = teamId ? await tenancy.getTeam(ref.tenantId, teamId) : undefined;
      const count = (metric: SlaMetric, clock: SlaClock, outcome: SlaOutcome) =>
        counts.count({
          tenantId: ref.tenantId,
          conversationId: ref.conversationId,
          metric,
          cycle: clock.cycle,
          outcome,
          at: change.at,
          teamId,
          agentId: record?.assigneeId ?? null,
        });

      for (const metric of change.start ?? []) {
        const minutes = team?.sla?.[targetOf[metric]];
        if (!minutes || clocks[metric]) continue;
        const ms = minutes * 60_000;
        const due = team.officeHours ? afterOpenTime(team.officeHours, new Date(change.at), ms) : new Date(change.at + ms);
        // A schedule with no open time within a year owes nothing.
        if (due) clocks[metric] = { dueAt: due.getTime(), cycle: change.at, breached: false };
      }
      for (const metric of change.stop ?? []) {
        const clock = clocks[metric];
        if (clock && !clock.breached && change.at <= clock.dueAt) await count(metric, clock, 'met');
        delete clocks[metric];
      }
      for (const metric of change.drop ?? []) delete clocks[metric];
      const breach = change.breach;
      const clock = breach ? clocks[breach] : undefined;
      if (breach && clock) {
        clock.breached = true;
        if (await count(breach, clock, 'breached'))
          await outboundEvents?.emit(
            ref.tenantId,
            slaBreached(ref, {
              metric: breach,
              cycle: clock.cycle,
              dueAt: clock.dueAt,
              teamId,
              assigneeId: record?.assigneeId ?? null,
            }),
          );
      }

      // The inbox orders by the earliest due time, a breached clock's too: what is overdue comes first.
      const running = Object.values(clocks);
      await records.setSla(ref, {
        dueAt: running.length > 0 ? Math.min(...running.map((entry) => entry.dueAt)) : null,
        breached: (Object.keys(clocks) as SlaMetric[]).filter((metric) => clocks[metric]!.breached),
      });
      return clocks;
    },
  };
}
