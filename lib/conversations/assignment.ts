import type { RedisClient } from '#platform/redis.js';
import type { Tenancy, Team } from '#tenancy/index.js';
import type { AssignmentResult, AssignmentStep, ConversationRef, HandoffBy } from '#workflows/conversations/types.js';
import type { AgentAvailability } from './availability.js';
import { pickAssignee, placementKeys } from './inbox-placement.js';
import type { ConversationRecords } from './records.js';
import { teamFor } from './routing.js';
import type { Transcript } from './transcript.js';

export interface AssignerDeps {
  redis: RedisClient;
  prefix: string;
  tenancy: Pick<Tenancy, 'getRouting' | 'getTeam' | 'listUsers'>;
  records: Pick<ConversationRecords, 'get' | 'assign'>;
  availability: Pick<AgentAvailability, 'availableAmong'>;
  transcript: Pick<Transcript, 'read'>;
  now?: () => Date;
}

/** The customer's latest messages routing reads for keywords. */
const routedMessages = 20;

/**
 * Who a conversation that needs a person goes to: its team, by the tenant's routing rules, then an
 * agent of that team, automatically (the least loaded available member under the team's capacity, in
 * turn among equals), on offer (one agent asks for the next waiting conversation), or by hand. Each step
 * is one of the conversation workflow's (`AssignmentStep`); what it decided is written to the record
 * and the inbox's indexes in one Redis step, and is the same when the step runs again.
 */
export function createAssigner({
  redis,
  prefix,
  tenancy,
  records,
  availability,
  transcript,
  now = () => new Date(),
}: AssignerDeps) {
  /** The team's available members, except `exclude`, with their names (only active users of the tenant). */
  async function candidatesOf(ref: ConversationRef, team: Team, exclude: readonly string[]) {
    const members = team.memberIds.filter((id) => !exclude.includes(id));
    const available = new Set(await availability.availableAmong(ref.tenantId, members));
    const users = await tenancy.listUsers(ref.tenantId);
    return users
      .filter((user) => user.active && available.has(user.id))
      .sort((a, b) => members.indexOf(a.id) - members.indexOf(b.id))
      .map((user) => ({ id: user.id, name: user.name }));
  }

  /** Assigns to one of `candidates` within the team's capacity; the agent, or null when all are full. */
  async function pick(ref: ConversationRef, team: Team, candidates: Array<{ id: string; name: string }>) {
    const id = await pickAssignee(
      redis,
      placementKeys(prefix, ref),
      ref.conversationId,
      now().getTime(),
      team.assignment.capacity,
      candidates,
    );
    const agent = candidates.find((candidate) => candidate.id === id);
    return agent ? { agentId: agent.id, name: agent.name } : null;
  }

  async function result(ref: ConversationRef, team: Team | undefined): Promise<AssignmentResult> {
    const record = await records.get(ref.conversationId);
    return {
      teamId: record?.teamId ?? null,
      agent: record?.assigneeId ? { agentId: record.assigneeId, name: record.assigneeName ?? '' } : null,
      offerMs: team?.assignment.automatic ? team.assignment.offerSeconds * 1000 : null,
      sla: Boolean(team?.sla && Object.values(team.sla).some((minutes) => minutes !== null)),
    };
  }

  async function teamOf(ref: ConversationRef, teamId: string | null | undefined): Promise<Team | undefined> {
    return teamId ? tenancy.getTeam(ref.tenantId, teamId) : undefined;
  }

  return {
    async run(ref: ConversationRef, step: AssignmentStep, handoffBy: HandoffBy | null): Promise<AssignmentResult> {
      switch (step.kind) {
        case 'route': {
          const customerText = (await transcript.read(ref.conversationId))
            .filter((message) => message.author === 'visitor')
            .slice(-routedMessages)
            .map((message) => message.text)
            .join('\n');
          const routing = await tenancy.getRouting(ref.tenantId);
          const teamId = teamFor(routing, { channel: ref.channel, operatorId: ref.operatorId, handoffBy, customerText });
          const team = await teamOf(ref, teamId);
          const current = await records.get(ref.conversationId);
          // A step run again after it assigned keeps what it did (the pick keeps a candidate already assigned).
          if (!current?.assigneeId) await records.assign(ref, { teamId: team?.id ?? null, assignee: null });
          if (team?.assignment.automatic) await pick(ref, team, await candidatesOf(ref, team, []));
          return result(ref, team);
        }
        case 'next': {
          const record = await records.get(ref.conversationId);
          const team = await teamOf(ref, record?.teamId);
          const exclude = record?.assigneeId ? [record.assigneeId, ...step.exclude] : step.exclude;
          const agent = team ? await pick(ref, team, await candidatesOf(ref, team, exclude)) : null;
          // Nobody else: the conversation goes back to the team's queue, or stays where it was.
          if (!agent && step.fallback === 'queue' && record && step.exclude.includes(record.assigneeId ?? ''))
            await records.assign(ref, { teamId: record.teamId ?? null, assignee: null });
          return result(ref, team);
        }
        case 'offer': {
          const record = await records.get(ref.conversationId);
          const team = await teamOf(ref, record?.teamId);
          if (team && !record?.assigneeId)
            await pick(
              ref,
              team,
              (await candidatesOf(ref, team, [])).filter((agent) => agent.id === step.agentId),
            );
          return result(ref, team);
        }
        case 'manual': {
          const record = await records.get(ref.conversationId);
          const teamId = step.teamId === undefined ? (record?.teamId ?? null) : step.teamId;
          const assignee = step.agent ? { id: step.agent.agentId, name: step.agent.name } : null;
          await records.assign(ref, { teamId, assignee });
          return result(ref, await teamOf(ref, teamId));
        }
      }
    },
  };
}

export type Assigner = ReturnType<typeof createAssigner>;
