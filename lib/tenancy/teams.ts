import { randomUUID } from 'node:crypto';
import type { OfficeHours } from './office-hours.js';
import type { TenancyStorage } from './storage.js';

/** How a team's conversations find an agent (docs/agent-inbox.md, "Teams and assignment"). */
export interface TeamAssignment {
  /** Hand each new conversation of the team to an available member, least loaded first, in turn. */
  automatic: boolean;
  /** Conversations an agent of this team holds at most (waiting for them or being answered) before none more is given. */
  capacity: number;
  /** An agent given a conversation who has not taken it over within this many seconds: it is offered to the next. */
  offerSeconds: number;
}

/**
 * A team's service-level targets, in minutes (null: none): the first agent reply after the handoff, each
 * next reply after a customer's message, and closing. Counted in open time when the team has office hours.
 */
export interface SlaPolicy {
  firstResponseMinutes: number | null;
  nextResponseMinutes: number | null;
  resolutionMinutes: number | null;
}

/** A group of the tenant's users that handed-off conversations are routed to. */
export interface Team {
  id: string;
  tenantId: string;
  name: string;
  /** User ids, in the order they were added. */
  memberIds: string[];
  assignment: TeamAssignment;
  /** When the team answers (null: always); customers handed off outside are told when it is back. */
  officeHours: OfficeHours | null;
  sla: SlaPolicy | null;
  createdAt: string;
  updatedAt: string;
}

export type TeamInput = Pick<Team, 'name' | 'memberIds'> & {
  assignment?: Partial<TeamAssignment>;
  officeHours?: OfficeHours | null;
  sla?: SlaPolicy | null;
};

export const defaultTeamAssignment: TeamAssignment = { automatic: true, capacity: 5, offerSeconds: 120 };

/** Teams a tenant may have; each a handful of fields, all read at once by routing. */
export const maxTeams = 100;

/**
 * Which team a handed-off conversation goes to: the first rule that matches, else the default team,
 * else none (the tenant's common queue). Every condition given must hold; keywords match when the
 * conversation's customer used any of them.
 */
export interface RoutingRule {
  teamId: string;
  channel?: string;
  operatorId?: string;
  /** Who asked for the person: `visitor`, `ai` or `agent`. */
  handoffBy?: string;
  keywords?: string[];
}

export interface Routing {
  rules: RoutingRule[];
  defaultTeamId: string | null;
}

export class TeamLimitError extends Error {
  constructor() {
    super(`A tenant has at most ${maxTeams} teams.`);
    this.name = 'TeamLimitError';
  }
}

/**
 * A tenant's teams and its routing rules: each team one field of a hash per tenant (as JSON), the
 * routing one JSON string; both small, read whole. Routing refers to teams by id: a team that is
 * removed drops out of the rules and the default.
 */
export function createTeamRecords({ redis, keys, now }: TenancyStorage) {
  const { tenantTeams: teamsKey, tenantRouting: routingKey } = keys;

  async function listTeams(tenantId: string): Promise<Team[]> {
    const all = await redis.hGetAll(teamsKey(tenantId));
    return Object.values(all)
      .map((json) => withDefaults(JSON.parse(json) as Team))
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
  }

  async function getTeam(tenantId: string, teamId: string): Promise<Team | undefined> {
    const json = await redis.hGet(teamsKey(tenantId), teamId);
    return json ? withDefaults(JSON.parse(json) as Team) : undefined;
  }

  async function getRouting(tenantId: string): Promise<Routing> {
    const json = await redis.get(routingKey(tenantId));
    return json ? (JSON.parse(json) as Routing) : { rules: [], defaultTeamId: null };
  }

  return {
    listTeams,
    getTeam,
    getRouting,

    async createTeam(tenantId: string, input: TeamInput): Promise<Team> {
      if ((await redis.hLen(teamsKey(tenantId))) >= maxTeams) throw new TeamLimitError();
      const at = now().toISOString();
      const team: Team = {
        id: randomUUID(),
        tenantId,
        name: input.name,
        memberIds: [...new Set(input.memberIds)],
        assignment: { ...defaultTeamAssignment, ...input.assignment },
        officeHours: input.officeHours ?? null,
        sla: input.sla ?? null,
        createdAt: at,
        updatedAt: at,
      };
      await redis.hSet(teamsKey(tenantId), team.id, JSON.stringify(team));
      return team;
    },

    async updateTeam(team: Team, changes: Partial<TeamInput>): Promise<Team> {
      const updated: Team = {
        ...team,
        ...(changes.name !== undefined ? { name: changes.name } : {}),
        ...(changes.memberIds ? { memberIds: [...new Set(changes.memberIds)] } : {}),
        assignment: { ...team.assignment, ...changes.assignment },
        ...(changes.officeHours !== undefined ? { officeHours: changes.officeHours } : {}),
        ...(changes.sla !== undefined ? { sla: changes.sla } : {}),
        updatedAt: now().toISOString(),
      };
      await redis.hSet(teamsKey(team.tenantId), team.id, JSON.stringify(updated));
      return updated;
    },

    async removeTeam(team: Team): Promise<void> {
      const routing = await getRouting(team.tenantId);
      const kept: Routing = {
        rules: routing.rules.filter((rule) => rule.teamId !== team.id),
        defaultTeamId: routing.defaultTeamId === team.id ? null : routing.defaultTeamId,
      };
      await redis.multi().hDel(teamsKey(team.tenantId), team.id).set(routingKey(team.tenantId), JSON.stringify(kept)).exec();
    },

    async setRouting(tenantId: string, routing: Routing): Promise<Routing> {
      await redis.set(routingKey(tenantId), JSON.stringify(routing));
      return routing;
    },
  };
}

/** Teams stored before office hours and SLAs: always open, no targets. */
function withDefaults(team: Team): Team {
  return { ...team, officeHours: team.officeHours ?? null, sla: team.sla ?? null };
}
