import { stringsFor } from '#answering/locales.js';
import type { Assigner } from '#conversations/assignment.js';
import type { ChatMessage } from '#conversations/chat-message.js';
import { systemMessage } from '#conversations/messages.js';
import { isOpen, nextOpening, openingInWords } from '#tenancy/office-hours.js';
import type { AssignmentEntry, AssignmentLog } from '#conversations/assignment-log.js';
import type { InboxChanges } from '#conversations/inbox-changes.js';
import type { EventEmitter } from '#outbound-events/emitter.js';
import { conversationAssigned } from '#outbound-events/facts.js';
import type { Tenancy } from '#tenancy/index.js';
import type {
  AssignmentResult,
  AssignmentStep,
  ConversationRef,
  ConversationSnapshot,
  HandoffBy,
} from '#workflows/conversations/types.js';

export interface AssignmentActivityDeps {
  assigner: Pick<Assigner, 'run'>;
  /** Team names, for the entry in the agents' transcript; their office hours. */
  tenancy: Pick<Tenancy, 'getTeam'>;
  /** Handed off outside the team's office hours: the customer is told when it is back (`teamAway`). */
  tellCustomer: (ref: ConversationRef, message: ChatMessage) => Promise<void>;
  log: Pick<AssignmentLog, 'append'>;
  inboxChanges: Pick<InboxChanges, 'publish'>;
  outboundEvents?: Pick<EventEmitter, 'emit'>;
  now?: () => Date;
}

/**
 * The conversation workflow's assignment step: the assigner decides (and writes the record and the
 * inbox's indexes), then a change is told: an entry in the agents' transcript, the tenant's open inbox
 * pages, and the `conversation.assigned` event. A change is measured against what the workflow knew
 * before the step (`previous`), not against the record, so a step run again after it wrote the record
 * but before it told anyone still tells, with the same entry and event ids.
 */
export function createAssignmentActivities({
  assigner,
  tenancy,
  tellCustomer,
  log,
  inboxChanges,
  outboundEvents,
  now = () => new Date(),
}: AssignmentActivityDeps) {
  return {
    async assignConversation(input: {
      conversation: ConversationRef;
      step: AssignmentStep;
      handoffBy: HandoffBy | null;
      effectId: number;
      previous?: ConversationSnapshot['assignment'];
    }): Promise<AssignmentResult> {
      const { conversation: ref, step, previous = { teamId: null, agent: null } } = input;
      const result = await assigner.run(ref, step, input.handoffBy);
      const team = result.teamId ? await tenancy.getTeam(ref.tenantId, result.teamId) : undefined;
      if (step.kind === 'route' && team?.officeHours && !isOpen(team.officeHours, now())) {
        const opening = nextOpening(team.officeHours, now());
        if (opening) {
          const text = stringsFor(ref.locale).teamAway(openingInWords(team.officeHours, opening, ref.locale));
          await tellCustomer(ref, systemMessage(`away-${input.effectId}`, text, now().toISOString()));
        }
      }
      // A conversation routed to no team and no one (a tenant without teams) has nothing to tell.
      const unchanged =
        previous.teamId === result.teamId && (previous.agent?.agentId ?? null) === (result.agent?.agentId ?? null);
      if (unchanged && step.kind !== 'manual') return result;

      const assignee = result.agent ? { id: result.agent.agentId, name: result.agent.name } : null;
      const teamName = team?.name;
      const entry: AssignmentEntry = {
        id: `assignment-${input.effectId}`,
        createdAt: now().toISOString(),
        teamId: result.teamId,
        assignee,
        reason: reasonOf(step),
        ...(step.kind === 'manual' ? { by: { id: step.by.agentId, name: step.by.name } } : {}),
        text: '',
      };
      entry.text = describe(entry, teamName);
      await log.append(ref.conversationId, entry);
      await inboxChanges.publish(ref.tenantId, { conversationId: ref.conversationId, assigneeId: assignee?.id ?? null });
      await outboundEvents?.emit(
        ref.tenantId,
        conversationAssigned(ref, {
          effectId: input.effectId,
          teamId: result.teamId,
          assignee,
          reason: entry.reason,
          ...(entry.by ? { by: entry.by } : {}),
        }),
      );
      return result;
    },
  };
}

function reasonOf(step: AssignmentStep): AssignmentEntry['reason'] {
  switch (step.kind) {
    case 'route':
      return 'routed';
    case 'next':
      return step.fallback === 'queue' ? 'agent_left' : 'not_taken_up';
    case 'offer':
      return 'offered';
    case 'manual':
      return 'manual';
  }
}

/** The entry's words, for the agents (English, as the rest of the inbox). */
export function describe(entry: Pick<AssignmentEntry, 'assignee' | 'reason' | 'by'>, teamName: string | undefined): string {
  const team = teamName ? ` (${teamName})` : '';
  const to = entry.assignee ? `Assigned to ${entry.assignee.name}${team}` : `Waiting for the next available agent${team}`;
  switch (entry.reason) {
    case 'routed':
      return entry.assignee ? `${to}, automatically.` : `${to}.`;
    case 'not_taken_up':
      return `Not taken up in time. ${to}.`;
    case 'agent_left':
      return `The agent left. ${to}.`;
    case 'offered':
      return `${to}: they asked for the next conversation.`;
    case 'manual':
      return entry.assignee
        ? `${entry.by?.name ?? 'Someone'} assigned it to ${entry.assignee.name}${team}.`
        : `${entry.by?.name ?? 'Someone'} unassigned it${team}.`;
  }
}
