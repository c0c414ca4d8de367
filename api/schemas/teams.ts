import { channels } from '#workflows/conversations/types.js';
import { availabilities } from '#conversations/availability.js';
import { maxTeams } from '#tenancy/index.js';
import { name, nullable, objectOf, text, timestamp, uuid } from './common.js';

/** Bounds of teams and routing, beside the tenant's `maxTeams`. */
export const teamLimits = { members: 500, rules: 100, keywords: 50, keywordChars: 100, capacity: 100 } as const;

const assignmentSettings = objectOf(
  {
    automatic: {
      type: 'boolean',
      description:
        'Give each conversation routed to the team to an available member, least loaded first, in turn among equals. Default true.',
    },
    capacity: {
      type: 'integer',
      minimum: 1,
      maximum: teamLimits.capacity,
      description:
        'Conversations a member holds at most (given to them, or being answered) before none more is given automatically. Default 5.',
    },
    offerSeconds: {
      type: 'integer',
      minimum: 30,
      maximum: 86_400,
      description:
        'A member given a conversation who has not taken it over within this many seconds: it goes to the next available member. Default 120.',
    },
  },
  ['automatic', 'capacity', 'offerSeconds'],
);

const memberIds = {
  type: 'array',
  maxItems: teamLimits.members,
  uniqueItems: true,
  items: uuid,
  description: "User ids of the tenant's users (admins or agents).",
} as const;

const clock = { type: 'string', pattern: '^(([01][0-9]|2[0-3]):[0-5][0-9]|24:00)$' } as const;
const openIntervals = {
  type: 'array',
  maxItems: 6,
  items: objectOf({
    from: { ...clock, description: 'Local time, `HH:MM`.' },
    to: { ...clock, description: "Local time, `HH:MM` (`24:00`: the day's end); after `from`." },
  }),
} as const;

export const officeHours = nullable(
  objectOf(
    {
      timeZone: { type: 'string', minLength: 1, maxLength: 64, description: 'An IANA time zone, `Europe/Berlin`.' },
      weekly: objectOf(
        {
          mon: openIntervals,
          tue: openIntervals,
          wed: openIntervals,
          thu: openIntervals,
          fri: openIntervals,
          sat: openIntervals,
          sun: openIntervals,
        },
        ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
      ),
      holidays: {
        type: 'array',
        maxItems: 366,
        uniqueItems: true,
        items: { type: 'string', pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' },
        description: 'Local dates (`YYYY-MM-DD`) closed all day.',
      },
    },
    ['holidays'],
  ),
);

const minutes = (description: string) => nullable({ type: 'integer', minimum: 1, maximum: 525_600, description });

export const slaPolicy = nullable(
  objectOf({
    firstResponseMinutes: minutes('The first agent reply after the handoff.'),
    nextResponseMinutes: minutes("Each next agent reply after a customer's message."),
    resolutionMinutes: minutes('Closing, from the handoff.'),
  }),
);

const teamProperties = {
  name,
  memberIds,
  assignment: assignmentSettings,
  officeHours: { ...officeHours, description: 'When the team answers (null: always). Targets count open time only.' },
  sla: { ...slaPolicy, description: 'Service-level targets, in minutes (null: none).' },
} as const;

export const createTeamRequest = objectOf(teamProperties, ['assignment', 'officeHours', 'sla']);
export const updateTeamRequest = objectOf(teamProperties, ['name', 'memberIds', 'assignment', 'officeHours', 'sla']);

export const team = objectOf({
  id: uuid,
  name: { type: 'string' },
  memberIds: { type: 'array', items: uuid },
  assignment: objectOf({
    automatic: { type: 'boolean' },
    capacity: { type: 'integer' },
    offerSeconds: { type: 'integer' },
  }),
  officeHours,
  sla: slaPolicy,
  createdAt: timestamp,
  updatedAt: timestamp,
});

export const teamResponse = objectOf({ team });
export const teamListResponse = objectOf({
  teams: { type: 'array', items: team, description: `In the order they were created; at most ${maxTeams}.` },
});

const routingRule = objectOf(
  {
    teamId: uuid,
    channel: { enum: [...channels] },
    operatorId: uuid,
    handoffBy: {
      enum: ['visitor', 'ai', 'agent'],
      description: 'Who asked for a person: the customer, the AI (it could not answer), an agent.',
    },
    keywords: {
      type: 'array',
      minItems: 1,
      maxItems: teamLimits.keywords,
      items: text({ minLength: 1, maxLength: teamLimits.keywordChars }),
      description: 'Any of these words or phrases in what the customer wrote (whole words, any case).',
    },
  },
  ['channel', 'operatorId', 'handoffBy', 'keywords'],
);

export const routingBody = objectOf({
  rules: {
    type: 'array',
    maxItems: teamLimits.rules,
    items: routingRule,
    description: 'Tried in order at each handoff: the first whose every condition holds routes the conversation to its team.',
  },
  defaultTeamId: nullable({
    ...uuid,
    description: 'Where a conversation no rule matches goes; null: no team (the common queue).',
  }),
});

export const routingResponse = objectOf({ routing: routingBody });

export const availability = { enum: [...availabilities] } as const;

export const availabilityRequest = objectOf({
  availability: {
    enum: ['available', 'away', 'offline'],
    description:
      'Only `available` agents are given conversations; going away or offline passes those given and not yet taken over to the next.',
  },
});

export const availabilityResponse = objectOf({
  availability: {
    ...availability,
    description: 'As the inbox sees it: your choice while an inbox page of yours is open, else `offline`.',
  },
  chosen: availability,
});

export const agentListResponse = objectOf({
  agents: {
    type: 'array',
    items: objectOf({
      id: uuid,
      name: { type: 'string' },
      role: { enum: ['admin', 'agent'] },
      availability,
      load: { type: 'integer', description: 'Conversations assigned to them now (given, or being answered).' },
      teamIds: { type: 'array', items: uuid },
    }),
  },
});

export const assignRequest = objectOf(
  {
    agentId: nullable({ ...uuid, description: "The user to assign it to; null: nobody (back to its team's queue)." }),
    teamId: nullable({ ...uuid, description: 'Move it to this team too (null: no team); absent: its team stays.' }),
  },
  ['teamId'],
);

export const assignResponse = objectOf({
  status: { enum: ['ai', 'waiting_for_agent', 'agent', 'closed'] },
  teamId: nullable(uuid),
  assignee: nullable(objectOf({ id: uuid, name: { type: 'string' } })),
});

/** A change of a conversation's team or assignee, as its private system message in the agents' transcript carries it. */
export const assignmentChange = objectOf({
  teamId: nullable(uuid),
  assignee: nullable(objectOf({ id: uuid, name: { type: 'string' } })),
  reason: {
    enum: ['routed', 'not_taken_up', 'agent_left', 'offered', 'manual'],
    description:
      '`routed` at the handoff; `not_taken_up`: the agent given it did not take it over in time; `agent_left`: they went away; `offered`: an agent with room asked for it; `manual`: a person assigned it.',
  },
});

/** The inbox's filters of teams and assignees, added to its list query. */
export const inboxAssignmentQuery = {
  teamId: {
    type: 'string',
    pattern: '^([0-9a-fA-F-]{36}|none)$',
    description: "One team's conversations; `none`: those routed to no team.",
  },
  assignee: {
    enum: ['mine', 'unassigned', 'all'],
    description: '`mine`: assigned to you; `unassigned`: to nobody; `all` (default): anyone.',
  },
  sort: {
    enum: ['activity', 'sla'],
    description:
      '`activity` (default): newest activity first; `sla`: least time left to a service-level target first (overdue first), those with a running target only.',
  },
} as const;
