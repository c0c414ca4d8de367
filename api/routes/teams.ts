import { TeamLimitError, type OfficeHours, type Routing, type Team, type Tenancy } from '#tenancy/index.js';
import { isTimeZone } from '#tenancy/office-hours.js';
import { invalidPayload, limitReached } from '../errors.js';
import type { UserGuard } from '../middleware/token-budgets.js';
import { refuseRole } from '../middleware/user-auth.js';
import { DocumentedRouter } from '../openapi/documented-router.js';
import { ownedBy } from '../ownership.js';
import {
  createTeamRequest,
  routingBody,
  routingResponse,
  teamListResponse,
  teamResponse,
  updateTeamRequest,
} from '../schemas/teams.js';
import type { UserState } from '../state.js';

export interface TeamsRouterDeps {
  tenancy: Pick<
    Tenancy,
    | 'listTeams'
    | 'getTeam'
    | 'createTeam'
    | 'updateTeam'
    | 'removeTeam'
    | 'getRouting'
    | 'setRouting'
    | 'listUsers'
    | 'listOperators'
  >;
  requireUser: UserGuard;
}

/**
 * A tenant's teams and the rules that route handed-off conversations to them (docs/agent-inbox.md,
 * "Teams and assignment"). Tenant admins change them; agents read them (the inbox's team filter).
 */
export function createTeamsRouter({ tenancy, requireUser }: TeamsRouterDeps) {
  const router = new DocumentedRouter<UserState>({ tags: ['Teams'], security: 'userToken', errors: [401, 403, 429, 503] });
  router.use(requireUser(['admin', 'agent']));
  const admins = async (ctx: { state: UserState }, next: () => Promise<unknown>) => {
    refuseRole(ctx.state.user.role, ['admin']);
    await next();
  };

  /** 400 naming each member who is no user of the tenant. */
  async function checkMembers(tenantId: string, memberIds: readonly string[] | undefined): Promise<void> {
    if (!memberIds) return;
    const users = new Set((await tenancy.listUsers(tenantId)).map((user) => user.id));
    const unknown = memberIds.filter((id) => !users.has(id));
    if (unknown.length > 0)
      throw invalidPayload(
        'Every member must be a user of this tenant.',
        unknown.map((id) => ({ path: `/memberIds/${memberIds.indexOf(id)}`, message: `no user ${id} in this tenant` })),
      );
  }

  async function teamOf(tenantId: string, teamId: string): Promise<Team> {
    return ownedBy(await tenancy.getTeam(tenantId, teamId), tenantId, `team ${teamId}`);
  }

  router.get(
    '/teams',
    {
      summary: "The tenant's teams",
      description: 'Roles admin and agent (the inbox filters by team).',
      responses: { 200: { description: 'The teams', schema: teamListResponse } },
    },
    async (ctx) => {
      ctx.body = { teams: (await tenancy.listTeams(ctx.state.user.tenantId)).map(present) };
    },
  );

  router.post(
    '/teams',
    {
      summary: 'Create a team',
      description:
        'Members are user ids of the tenant (400 naming any other). Assignment defaults: automatic, capacity 5, offered to the next after 120 s. ' +
        'Office hours (a time zone, open intervals per weekday, holidays) and service-level targets are optional. ' +
        'At most 100 teams (409 `team_limit_reached`). Role admin.',
      body: createTeamRequest,
      responses: { 201: { description: 'The team', schema: teamResponse } },
      errors: [400, 409],
    },
    admins,
    async (ctx) => {
      const { tenantId } = ctx.state.user;
      await checkMembers(tenantId, ctx.request.body.memberIds);
      checkOfficeHours(asTeamInput(ctx.request.body).officeHours);
      try {
        ctx.status = 201;
        ctx.body = { team: present(await tenancy.createTeam(tenantId, asTeamInput(ctx.request.body))) };
      } catch (error) {
        if (error instanceof TeamLimitError) throw limitReached('team_limit_reached', error.message);
        throw error;
      }
    },
  );

  router.get(
    '/teams/{teamId}',
    {
      summary: 'A team',
      description: 'Roles admin and agent. Unknown: 404.',
      responses: { 200: { description: 'The team', schema: teamResponse } },
      errors: [404],
    },
    async (ctx) => {
      ctx.body = { team: present(await teamOf(ctx.state.user.tenantId, ctx.params.teamId!)) };
    },
  );

  router.patch(
    '/teams/{teamId}',
    {
      summary: 'Change a team',
      description:
        'Its name, members (the whole list) or assignment settings; what is absent stays. A member taken out keeps the conversations they have. Role admin.',
      body: updateTeamRequest,
      responses: { 200: { description: 'The team', schema: teamResponse } },
      errors: [400, 404],
    },
    admins,
    async (ctx) => {
      const { tenantId } = ctx.state.user;
      const team = await teamOf(tenantId, ctx.params.teamId!);
      await checkMembers(tenantId, ctx.request.body.memberIds);
      checkOfficeHours(asTeamInput(ctx.request.body).officeHours);
      ctx.body = { team: present(await tenancy.updateTeam(team, asTeamInput(ctx.request.body))) };
    },
  );

  router.delete(
    '/teams/{teamId}',
    {
      summary: 'Remove a team',
      description:
        'It leaves the routing rules (and the default, which becomes none); its conversations keep their team id until they are routed again. Role admin.',
      responses: { 204: { description: 'Removed' } },
      errors: [404],
    },
    admins,
    async (ctx) => {
      await tenancy.removeTeam(await teamOf(ctx.state.user.tenantId, ctx.params.teamId!));
      ctx.status = 204;
    },
  );

  router.get(
    '/team-routing',
    {
      summary: 'How handoffs are routed to teams',
      description: 'The rules, tried in order at each handoff, and the default team. Roles admin and agent.',
      responses: { 200: { description: 'The routing', schema: routingResponse } },
    },
    async (ctx) => {
      ctx.body = { routing: await tenancy.getRouting(ctx.state.user.tenantId) };
    },
  );

  router.put(
    '/team-routing',
    {
      summary: 'Set how handoffs are routed to teams',
      description:
        "The whole routing: every team named must be one of the tenant's, every operator too (400 naming the rule otherwise). " +
        'It applies to handoffs from now on; conversations routed already keep their team. Role admin.',
      body: routingBody,
      responses: { 200: { description: 'The routing', schema: routingResponse } },
      errors: [400],
    },
    admins,
    async (ctx) => {
      const { tenantId } = ctx.state.user;
      const routing = ctx.request.body as Routing;
      const [teams, operators] = await Promise.all([tenancy.listTeams(tenantId), tenancy.listOperators(tenantId)]);
      const teamIds = new Set(teams.map((team) => team.id));
      const operatorIds = new Set(operators.map((operator) => operator.id));
      const problems = routing.rules.flatMap((rule, i) => [
        ...(teamIds.has(rule.teamId) ? [] : [{ path: `/rules/${i}/teamId`, message: `no team ${rule.teamId} in this tenant` }]),
        ...(rule.operatorId && !operatorIds.has(rule.operatorId)
          ? [{ path: `/rules/${i}/operatorId`, message: `no operator ${rule.operatorId} in this tenant` }]
          : []),
      ]);
      if (routing.defaultTeamId && !teamIds.has(routing.defaultTeamId))
        problems.push({ path: '/defaultTeamId', message: `no team ${routing.defaultTeamId} in this tenant` });
      if (problems.length > 0) throw invalidPayload('The routing names teams or operators this tenant does not have.', problems);
      ctx.body = { routing: await tenancy.setRouting(tenantId, routing) };
    },
  );

  return router;
}

function present({ id, name, memberIds, assignment, officeHours, sla, createdAt, updatedAt }: Team) {
  return { id, name, memberIds, assignment, officeHours, sla, createdAt, updatedAt };
}

/** A team's fields as the request gave them, holidays none when not given. */
function asTeamInput<Body extends { officeHours?: (Omit<OfficeHours, 'holidays'> & { holidays?: string[] }) | null }>(
  body: Body,
) {
  const { officeHours, ...rest } = body;
  return {
    ...rest,
    ...(officeHours !== undefined
      ? { officeHours: officeHours && { ...officeHours, holidays: officeHours.holidays ?? [] } }
      : {}),
  } as Omit<Body, 'officeHours'> & { officeHours?: OfficeHours | null };
}

/** 400 naming what the schema cannot say of office hours: an unknown time zone, an interval that ends before it starts. */
function checkOfficeHours(hours: OfficeHours | null | undefined): void {
  if (!hours) return;
  const problems = [
    ...(isTimeZone(hours.timeZone) ? [] : [{ path: '/officeHours/timeZone', message: `${hours.timeZone} is no IANA time zone` }]),
    ...Object.entries(hours.weekly).flatMap(([day, intervals]) =>
      (intervals ?? []).flatMap((interval, i) =>
        interval.to > interval.from ? [] : [{ path: `/officeHours/weekly/${day}/${i}`, message: 'must end after it starts' }],
      ),
    ),
  ];
  if (problems.length > 0) throw invalidPayload('The office hours are not valid.', problems);
}
