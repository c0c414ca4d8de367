import type { AgentAvailability, Availability } from '#conversations/availability.js';
import type { InboxPlacement } from '#conversations/inbox-offers.js';
import type { ConversationRecords } from '#conversations/records.js';
import { ActionNotConfirmedError, type ConversationClient } from '#conversations/workflow-client.js';
import type { Team, Tenancy } from '#tenancy/index.js';
import { invalidPayload } from '#api/errors.js';
import type { UserGuard } from '#api/middleware/token-budgets.js';
import { DocumentedRouter } from '#api/openapi/documented-router.js';
import { actionAcceptedResponse } from '#api/schemas/agent.js';
import {
  agentListResponse,
  assignRequest,
  assignResponse,
  availabilityRequest,
  availabilityResponse,
} from '#api/schemas/teams.js';
import type { UserState } from '#api/state.js';
import { createReplySending, open, workflowAction } from './reply-sending.js';
import { actionWaitNote, agentAction, idempotencyKeyHeader } from './routes.js';

export interface AssignmentRouterDeps {
  requireUser: UserGuard;
  tenancy: Pick<Tenancy, 'listUsers' | 'getUser' | 'getTeam' | 'listTeams'>;
  records: Pick<ConversationRecords, 'get'>;
  conversations: Pick<ConversationClient, 'assign' | 'nudgeAssignment' | 'agentReply'>;
  availability: Pick<AgentAvailability, 'of' | 'chosen' | 'choose'>;
  placement: Pick<InboxPlacement, 'loads' | 'waitingGivenTo' | 'offersFor'>;
  channel: Parameters<typeof createReplySending>[0]['channel'];
}

/**
 * Who works the inbox and who has what: the tenant's agents with their availability and load, an
 * agent's own availability, and assigning a conversation by hand (docs/agent-inbox.md, "Teams and
 * assignment"). Roles admin and agent.
 */
export function createAssignmentRouter(deps: AssignmentRouterDeps) {
  const { tenancy, records, conversations, availability, placement } = deps;
  const router = new DocumentedRouter<UserState>({ tags: ['Agent inbox'], security: 'userToken', errors: [401, 403, 429, 503] });
  router.use(deps.requireUser(['admin', 'agent']));
  const { owned } = createReplySending({ records, conversations, channel: deps.channel });

  router.get(
    '/agent/agents',
    {
      summary: "The tenant's agents, with their availability and load",
      description:
        'Every active user (admins and agents), their availability as the inbox sees it (`offline` while no inbox page of theirs is open), ' +
        'the conversations assigned to them now and their teams. Roles admin and agent.',
      responses: { 200: { description: 'The agents', schema: agentListResponse } },
    },
    async (ctx) => {
      const { tenantId } = ctx.state.user;
      const [users, teams] = await Promise.all([tenancy.listUsers(tenantId), tenancy.listTeams(tenantId)]);
      const active = users.filter((user) => user.active);
      const ids = active.map((user) => user.id);
      const [states, loads] = await Promise.all([availability.of(tenantId, ids), placement.loads(tenantId, ids)]);
      ctx.body = {
        agents: active.map((user) => ({
          id: user.id,
          name: user.name,
          role: user.role,
          availability: states.get(user.id) ?? 'offline',
          load: loads.get(user.id) ?? 0,
          teamIds: teams.filter((team) => team.memberIds.includes(user.id)).map((team) => team.id),
        })),
      };
    },
  );

  router.get(
    '/agent/availability',
    {
      summary: 'Your availability',
      description:
        'What you chose, and what the inbox sees (`offline` while no inbox page of yours is open). Roles admin and agent.',
      responses: { 200: { description: 'Your availability', schema: availabilityResponse } },
    },
    async (ctx) => {
      ctx.body = await availabilityOf(ctx.state.user);
    },
  );

  router.put(
    '/agent/availability',
    {
      summary: 'Set your availability',
      description:
        '`available`: conversations of your teams are given to you automatically (and those waiting are offered to you at once, within your capacity). ' +
        '`away` or `offline`: none are; those given to you and not yet taken over go to the next available member, or back to the queue. ' +
        'Conversations you have taken over stay yours. Roles admin and agent.',
      body: availabilityRequest,
      responses: { 200: { description: 'Your availability', schema: availabilityResponse } },
    },
    async (ctx) => {
      const { user } = ctx.state;
      const chosen = ctx.request.body.availability as Availability;
      await availability.choose(user.tenantId, user.id, chosen);
      if (chosen === 'available') await offer(user);
      else
        for (const ref of await placement.waitingGivenTo(user.tenantId, user.id))
          await conversations.nudgeAssignment(ref, { kind: 'agentLeft', agentId: user.id });
      ctx.body = await availabilityOf(user);
    },
  );

  router.post(
    '/agent/conversations/{conversationId}/assign',
    {
      summary: 'Assign a conversation',
      description:
        "To an active user of the tenant (`agentId`), or to nobody (`null`: back to its team's queue); `teamId` moves it to that team too. " +
        'By hand, capacity does not apply. An AI conversation is handed to a person by it; one an agent is answering passes to the new agent ' +
        '(unassigning it is refused with 409 `conflict`: hand it back or close it). Closed: 409 `conversation_closed`. ' +
        "Shown in the agents' transcript and sent as `conversation.assigned`. Roles admin and agent. " +
        actionWaitNote,
      headers: [idempotencyKeyHeader],
      body: assignRequest,
      responses: {
        200: { description: 'Where it stands now', schema: assignResponse },
        202: { description: 'Accepted, still being applied', schema: actionAcceptedResponse },
      },
      errors: [400, 404, 409],
    },
    async (ctx) => {
      const { user } = ctx.state;
      const conversation = await open(owned(user.tenantId, ctx.params.conversationId!));
      const { agentId, teamId } = ctx.request.body;
      const agent = agentId ? await assignable(user.tenantId, agentId) : null;
      if (teamId) await teamOr400(user.tenantId, teamId);
      const { updateId, retryWith } = agentAction(ctx, 'assign');
      const by = { agentId: user.id, name: user.name };
      try {
        await workflowAction(
          () => conversations.assign(conversation, { agent, ...(teamId !== undefined ? { teamId } : {}), by }, { updateId }),
          retryWith,
        );
      } catch (error) {
        if (!(error instanceof ActionNotConfirmedError && error.stage === 'accepted')) throw error;
        ctx.status = 202;
        ctx.body = { accepted: true };
        return;
      }
      const now = await records.get(conversation.conversationId);
      ctx.body = {
        status: now?.status ?? conversation.status,
        teamId: now?.teamId ?? null,
        assignee: now?.assigneeId ? { id: now.assigneeId, name: now.assigneeName ?? '' } : null,
      };
    },
  );

  async function availabilityOf(user: UserState['user']) {
    const [seen, chosen] = await Promise.all([
      availability.of(user.tenantId, [user.id]),
      availability.chosen(user.tenantId, user.id),
    ]);
    return { availability: seen.get(user.id) ?? 'offline', chosen };
  }

  /** The waiting conversations of the user's teams that nobody has, offered to them within their room. */
  async function offer(user: UserState['user']): Promise<void> {
    for (const ref of await placement.offersFor(user.tenantId, user.id))
      await conversations.nudgeAssignment(ref, { kind: 'offer', agentId: user.id });
  }

  async function assignable(tenantId: string, agentId: string) {
    const found = await tenancy.getUser(agentId);
    if (!found || found.tenantId !== tenantId || !found.active)
      throw invalidPayload('Assign to an active user of this tenant.', [
        { path: '/agentId', message: `no active user ${agentId} in this tenant` },
      ]);
    return { agentId: found.id, name: found.name };
  }

  async function teamOr400(tenantId: string, teamId: string): Promise<Team> {
    const team = await tenancy.getTeam(tenantId, teamId);
    if (!team)
      throw invalidPayload('No such team in this tenant.', [{ path: '/teamId', message: `no team ${teamId} in this tenant` }]);
    return team;
  }

  return router;
}
