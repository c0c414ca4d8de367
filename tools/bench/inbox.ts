/**
 * `npm run bench:inbox [-- --conversations 10000 --agents 50 --teams 5 --requests 200 --concurrency 4 --waiting 1000 --handoffs 100]`:
 * the agent inbox with teams and assignment (docs/agent-inbox.md, "Teams and assignment") on a stack of its
 * own (API and worker processes, real Temporal and Redis).
 *  1. The list: a tenant with `conversations` conversations that need a person, written straight through
 *     the records library as the worker writes them (record and inbox indexes), over `teams` teams of
 *     `agents` agents (a fifth waiting unassigned, two fifths waiting with an agent, two fifths being
 *     answered; 30% on the messaging channel). Measures GET /agent/conversations by default (needing a
 *     person), `assignee=mine`, `teamId=`, `assignee=unassigned` (limit 50), `requests` requests each at
 *     `concurrency` in flight; beside them the same run's baselines: `status=all` (the scan of the newest
 *     1,000 by creation), reading one conversation, and `/live`.
 *  2. Automatic assignment: another tenant, `agents` agents in one team that assigns automatically (the
 *     default team of its routing), each present through an open GET /agent/events, and `waiting`
 *     conversations already waiting and assigned among them (written as in 1). Then `handoffs` widget
 *     visitors, one at a time, start a conversation and ask for a person: the time from the handoff request
 *     until an `assigned` event for that conversation arrives on an agent's stream; beside it the same run's
 *     baseline, the time until GET /agent/conversations/{id} reads `waiting_for_agent`; and how many
 *     conversations each agent was given. Beside them what the open pages cost: the API's and worker's CPU
 *     idle (10 s) and during the handoffs, and one conversation read one at a time before and while they are open.
 * Goals: list p95 ≤ 50 ms; handoff → assigned agent notified p95 ≤ 500 ms.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { availableParallelism, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { createParser } from 'eventsource-parser';
import pLimit from 'p-limit';
import { createConversationRecords, type ConversationRecords } from '#conversations/records.js';
import { conversationKeys } from '#conversations/redis-keys.js';
import type { RedisClient } from '#platform/redis.js';
import { chatClient } from '#testing/chat.js';
import { cpuMeter } from '#testing/process-usage.js';
import { createApiClient } from '#cli/admin-client.js';
import { percentile, round, startMeasuredStack, type MeasuredStack } from './measured-stack.js';

const { values: args } = parseArgs({
  options: {
    conversations: { type: 'string', default: '10000' },
    agents: { type: 'string', default: '50' },
    teams: { type: 'string', default: '5' },
    requests: { type: 'string', default: '200' },
    concurrency: { type: 'string', default: '4' },
    waiting: { type: 'string', default: '1000' },
    handoffs: { type: 'string', default: '100' },
  },
});
const conversationCount = Number(args.conversations);
const agentCount = Number(args.agents);
const teamCount = Number(args.teams);
const requestCount = Number(args.requests);
const concurrency = Number(args.concurrency);
const waitingCount = Number(args.waiting);
const handoffCount = Number(args.handoffs);
/** The most a team's member holds (the API's maximum); the waiting conversations stay well under it. */
const capacity = 100;

// A seeded generator: the same inbox every run.
let seed = 20_270_411;
const random = () => {
  seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0;
  return seed / 2 ** 32;
};

interface Agent {
  id: string;
  name: string;
  token: string;
}

type Figures = { 'p50 ms': number; 'p95 ms': number; 'p99 ms': number; 'requests/s'?: number };

const figuresOf = (values: number[]): Figures => {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    'p50 ms': round(percentile(sorted, 0.5)),
    'p95 ms': round(percentile(sorted, 0.95)),
    'p99 ms': round(percentile(sorted, 0.99)),
  };
};

const stack = await startMeasuredStack('bench-inbox');
try {
  const apps = await stack.startApps();
  const redis = stack.redis as unknown as RedisClient;
  const records = createConversationRecords(redis, stack.prefix);

  // ---- 1. The list of a tenant with many conversations that need a person.
  const listing = await inboxTenant(stack, 'Bench inbox list', agentCount);
  const teams: Array<{ id: string; members: Agent[] }> = [];
  for (let t = 0; t < teamCount; t++) {
    const members = listing.agents.filter((_, a) => a % teamCount === t);
    const { team } = await listing.asAdmin.request<{ team: { id: string } }>('POST', '/teams', {
      name: `Team ${t + 1}`,
      memberIds: members.map((agent) => agent.id),
    });
    teams.push({ id: team.id, members });
  }
  const writeStarted = performance.now();
  const kinds = { unassigned: 0, given: 0, answering: 0 };
  const write = pLimit(32);
  await Promise.all(
    Array.from({ length: conversationCount }, (_, n) =>
      write(async () => {
        const team = teams[n % teams.length]!;
        const r = random();
        const kind = r < 0.2 ? 'unassigned' : r < 0.6 ? 'given' : 'answering';
        kinds[kind]++;
        const agent = team.members[Math.floor(random() * team.members.length)]!;
        await needingPerson(records, listing, n, {
          teamId: team.id,
          agent: kind === 'unassigned' ? null : agent,
          answering: kind === 'answering',
        });
      }),
    ),
  );
  const writeSeconds = (performance.now() - writeStarted) / 1000;

  const me = listing.agents[0]!;
  const myTeam = teams[0]!;
  const asMe = { authorization: `Bearer ${me.token}` };
  // What each list must hold: as many as its index has, up to 50, each passing its filter.
  const base = conversationKeys(stack.prefix).inbox(listing.tenantId);
  const checks: Array<[string, string, (c: any) => boolean]> = [
    [
      '',
      conversationKeys(stack.prefix).needingPerson(listing.tenantId),
      (c) => c.status === 'waiting_for_agent' || c.status === 'agent',
    ],
    ['assignee=mine', `${base}:assignee:${me.id}`, (c) => c.assignee?.id === me.id],
    [`teamId=${myTeam.id}`, `${base}:team:${myTeam.id}`, (c) => c.teamId === myTeam.id],
    ['assignee=unassigned', `${base}:unassigned`, (c) => c.assignee === null && c.status === 'waiting_for_agent'],
  ];
  for (const [query, index, passes] of checks) {
    const expected = Math.min(50, await redis.zCard(index));
    const body = await getJson(stack, `/agent/conversations?${query}&limit=50`, asMe);
    if (expected === 0 || body.conversations.length !== expected || !body.conversations.every(passes))
      throw new Error(
        `GET /agent/conversations?${query} listed ${body.conversations.length}, not the ${expected} that pass its filter`,
      );
  }
  const anyId = (await getJson(stack, '/agent/conversations?limit=1', asMe)).conversations[0].conversationId as string;

  const measure = async (path: string, { count = requestCount, parallel = concurrency, headers = asMe } = {}) => {
    const inFlight = pLimit(parallel);
    const once = async () => {
      const started = performance.now();
      const response = await fetch(`${stack.apiUrl}${path}`, { headers });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
      return performance.now() - started;
    };
    // Warm-up: connections, compiled code paths.
    await Promise.all(Array.from({ length: 20 }, () => inFlight(once)));
    const started = performance.now();
    const ms = await Promise.all(Array.from({ length: count }, () => inFlight(once)));
    return { ...figuresOf(ms), 'requests/s': round(count / ((performance.now() - started) / 1000)) };
  };
  const listRows: Record<string, Figures> = {
    'baseline: GET /live': await measure('/live'),
    'baseline: GET /agent/conversations/{id} (one conversation)': await measure(`/agent/conversations/${anyId}`),
    'baseline: ?status=all (scan of the newest 1,000)': await measure('/agent/conversations?status=all&limit=50'),
    'default (needing a person)': await measure('/agent/conversations?limit=50'),
    '?assignee=mine': await measure('/agent/conversations?assignee=mine&limit=50'),
    '?teamId=<one of 5>': await measure(`/agent/conversations?teamId=${myTeam.id}&limit=50`),
    '?assignee=unassigned': await measure('/agent/conversations?assignee=unassigned&limit=50'),
    '?teamId=<one of 5>&assignee=mine': await measure(`/agent/conversations?teamId=${myTeam.id}&assignee=mine&limit=50`),
    '?status=waiting_for_agent&teamId=<one of 5>': await measure(
      `/agent/conversations?status=waiting_for_agent&teamId=${myTeam.id}&limit=50`,
    ),
    'default, one at a time (100 requests)': await measure('/agent/conversations?limit=50', { count: 100, parallel: 1 }),
  };
  const myLoad = await redis.zCard(`${base}:assignee:${me.id}`);

  // ---- 2. Automatic assignment among agents present in the inbox.
  const assigning = await inboxTenant(stack, 'Bench inbox assignment', agentCount);
  const { team } = await assigning.asAdmin.request<{ team: { id: string } }>('POST', '/teams', {
    name: 'Support',
    memberIds: assigning.agents.map((agent) => agent.id),
    assignment: { automatic: true, capacity, offerSeconds: 3600 },
  });
  await assigning.asAdmin.request('PUT', '/team-routing', { rules: [], defaultTeamId: team.id });
  const waitingIds = await Promise.all(
    Array.from({ length: waitingCount }, (_, n) =>
      write(() =>
        needingPerson(records, assigning, n, { teamId: team.id, agent: assigning.agents[n % agentCount]!, answering: false }),
      ),
    ),
  );
  // What an open inbox page costs the others: one conversation read, one at a time, before and while the pages are open.
  const asAgent0 = { authorization: `Bearer ${assigning.agents[0]!.token}` };
  const readOne = `/agent/conversations/${waitingIds[0]}`;
  const oneAlone = await measure(readOne, { count: 100, parallel: 1, headers: asAgent0 });

  // Each agent's inbox page: an open event stream, which keeps them present and hears of assignments.
  const given = new Map<string, { agent: number; atMs: number }>();
  const waiters = new Map<string, () => void>();
  const perAgent = new Array<number>(agentCount).fill(0);
  const inboxEvents = new Array<number>(agentCount).fill(0);
  const streams = new AbortController();
  const opened = assigning.agents.map((agent, a) =>
    followInbox(stack, agent, streams.signal, (event, data) => {
      if (event === 'inbox') inboxEvents[a]!++;
      if (event !== 'assigned') return;
      const { conversationId } = JSON.parse(data) as { conversationId: string };
      given.set(conversationId, { agent: a, atMs: performance.now() });
      waiters.get(conversationId)?.();
    }),
  );
  await Promise.all(opened.map((stream) => stream.ready));
  // Present: each stream's first round has marked its agent so.
  const deadline = performance.now() + 30_000;
  for (;;) {
    const { agents } = await getJson(stack, '/agent/agents', asAgent0);
    const available = agents.filter((agent: any) => agent.availability === 'available' && agent.role === 'agent').length;
    if (available === agentCount) break;
    if (performance.now() > deadline) throw new Error(`only ${available} of ${agentCount} agents are available after 30 s`);
    await sleep(200);
  }

  const idleMeter = cpuMeter({ API: apps.api.pid, worker: apps.workers[0]!.pid });
  await sleep(10_000);
  const idle = idleMeter.stop();
  const oneWithPages = await measure(readOne, { count: 100, parallel: 1, headers: asAgent0 });

  const chat = chatClient(stack.apiUrl, assigning.operatorKey);
  const handoffOnce = async () => {
    const visitor = await chat.start();
    const { conversationId } = visitor;
    const notified = new Promise<void>((resolve) => waiters.set(conversationId, resolve));
    const sentAt = performance.now();
    const response = await fetch(`${stack.apiUrl}/chat/conversations/${conversationId}/handoff`, {
      method: 'POST',
      headers: visitor.headers,
    });
    const answeredMs = performance.now() - sentAt;
    if (response.status !== 202) throw new Error(`handoff answered ${response.status}: ${await response.text()}`);
    // The baseline: the conversation reads as waiting for a person.
    let waitingMs = NaN;
    while (performance.now() - sentAt < 10_000) {
      const body = await getJson(stack, `/agent/conversations/${conversationId}`, asAgent0);
      if (body.status === 'waiting_for_agent') {
        waitingMs = performance.now() - sentAt;
        break;
      }
      await sleep(5);
    }
    const arrived = await Promise.race([notified.then(() => true), sleep(10_000).then(() => false)]);
    waiters.delete(conversationId);
    return { conversationId, answeredMs, waitingMs, notifiedMs: arrived ? given.get(conversationId)!.atMs - sentAt : NaN };
  };
  // Warm-up: the first workflows and activities.
  for (let i = 0; i < 5; i++) await handoffOnce();
  const handoffMeter = cpuMeter({ API: apps.api.pid, worker: apps.workers[0]!.pid });
  const measuredGiven = new Set<string>();
  const samples = [];
  for (let i = 0; i < handoffCount; i++) {
    const sample = await handoffOnce();
    samples.push(sample);
    measuredGiven.add(sample.conversationId);
  }
  const handoffUsage = handoffMeter.stop();
  for (const [conversationId, { agent }] of given) if (measuredGiven.has(conversationId)) perAgent[agent]!++;
  const missing = samples.filter((sample) => Number.isNaN(sample.notifiedMs));
  const missingState = missing[0]
    ? await getJson(stack, `/agent/conversations/${missing[0].conversationId}`, asAgent0).then(
        ({ status, teamId, assignee }) => ({ status, teamId, assignee }),
        (error: unknown) => String(error),
      )
    : undefined;
  const loads = ((await getJson(stack, '/agent/agents', asAgent0)).agents as Array<{ role: string; load: number }>)
    .filter((agent) => agent.role === 'agent')
    .map((agent) => agent.load);
  streams.abort();
  await Promise.all(opened.map((stream) => stream.done));

  // ---- The figures.
  console.log(
    `\nbench:inbox (profile ${stack.profile}; ${requestCount} requests per row at ${concurrency} in flight, limit 50; ` +
      `load average ${loadavg()
        .map((load) => round(load))
        .join(' ')} on ${availableParallelism()} cores)`,
  );
  console.log(
    `1. list: ${conversationCount} conversations needing a person (${kinds.unassigned} waiting unassigned, ${kinds.given} waiting ` +
      `with an agent, ${kinds.answering} being answered) over ${teamCount} teams and ${agentCount} agents, written in ` +
      `${round(writeSeconds)} s; "mine" holds ${myLoad}, a team about ${Math.round(conversationCount / teamCount)}`,
  );
  console.table(listRows);
  const list = listRows['default (needing a person)']!;
  const scan = listRows['baseline: ?status=all (scan of the newest 1,000)']!;
  const one = listRows['baseline: GET /agent/conversations/{id} (one conversation)']!;
  const filtered = ['default (needing a person)', '?assignee=mine', '?teamId=<one of 5>', '?assignee=unassigned'];
  const worstP95 = Math.max(...filtered.map((row) => listRows[row]!['p95 ms']));
  console.log(
    `default list p95 / status=all p95: ${round(list['p95 ms'] / scan['p95 ms'], 2)}; ` +
      `default list p95 / one conversation p95: ${round(list['p95 ms'] / one['p95 ms'], 2)}; ` +
      `goal: p95 ≤ 50 ms for the four lists (worst ${worstP95} ms): ${worstP95 <= 50 ? 'met' : 'NOT met'}`,
  );

  const answered = samples.map((sample) => sample.answeredMs);
  const waiting = samples.map((sample) => sample.waitingMs).filter((ms) => !Number.isNaN(ms));
  const notified = samples.map((sample) => sample.notifiedMs).filter((ms) => !Number.isNaN(ms));
  console.log(
    `\n2. automatic assignment: ${agentCount} agents present (an open GET /agent/events each), one team (capacity ${capacity}), ` +
      `${waitingCount} conversations already waiting with an agent; ${handoffCount} widget handoffs one at a time (after 5 of warm-up)`,
  );
  const assignRows: Record<string, Figures> = {
    'POST …/handoff answered (202)': figuresOf(answered),
    'baseline: handoff → GET /agent/conversations/{id} reads waiting_for_agent': figuresOf(waiting),
    "handoff → `assigned` event on the agent's stream": figuresOf(notified),
  };
  console.table(assignRows);
  const perSecond = (usage: { wall: number; cpu: Record<string, number> }, name: string) =>
    round(usage.cpu[name]! / usage.wall, 2);
  console.log(
    `CPU seconds per second: idle with the ${agentCount} pages open (10 s) API ${perSecond(idle, 'API')}, worker ${perSecond(idle, 'worker')}; ` +
      `during the measured handoffs API ${perSecond(handoffUsage, 'API')}, worker ${perSecond(handoffUsage, 'worker')}`,
  );
  console.table({
    'GET /agent/conversations/{id}, one at a time, no inbox page open': oneAlone,
    [`the same with the ${agentCount} inbox pages open (idle)`]: oneWithPages,
  });
  const histogram = new Map<number, number>();
  for (const count of perAgent) histogram.set(count, (histogram.get(count) ?? 0) + 1);
  console.log(
    `assignments per agent (measured handoffs): ${[...histogram]
      .sort(([a], [b]) => a - b)
      .map(([count, agents]) => `${agents} agents × ${count}`)
      .join(', ')}; loads after (GET /agent/agents): min ${Math.min(...loads)}, max ${Math.max(...loads)}; ` +
      `inbox list events received per stream: median ${percentile(
        [...inboxEvents].sort((a, b) => a - b),
        0.5,
      )}`,
  );
  if (missing.length > 0)
    console.log(
      `NO assigned event within 10 s for ${missing.length} of ${handoffCount} handoffs; the first reads ${JSON.stringify(missingState)}`,
    );
  const notifiedP95 = assignRows["handoff → `assigned` event on the agent's stream"]!['p95 ms'];
  console.log(
    `notified p95 / baseline p95: ${round(notifiedP95 / assignRows['baseline: handoff → GET /agent/conversations/{id} reads waiting_for_agent']!['p95 ms'], 2)}; ` +
      `goal: p95 ≤ 500 ms: ${missing.length === 0 && notifiedP95 <= 500 ? 'met' : 'NOT met'}`,
  );
} finally {
  await stack.stop();
}

/** A tenant with an operator, an admin user (who sets teams up) and `agents` agent users. */
async function inboxTenant(on: MeasuredStack, name: string, agents: number) {
  const tenant = await on.admin.request<{ id: string; defaultKnowledgeBaseId: string }>('POST', '/admin/tenants', { name });
  const operator = await on.admin.request<{ id: string; operatorKey: string }>('POST', `/admin/tenants/${tenant.id}/operators`, {
    name: 'Northwind Outfitters',
  });
  const user = (role: 'admin' | 'agent', userName: string) =>
    on.admin.request<Agent>('POST', `/admin/tenants/${tenant.id}/users`, {
      name: userName,
      email: `${randomUUID()}@bench.test`,
      role,
    });
  const admin = await user('admin', 'Bench admin');
  const created = await Promise.all(Array.from({ length: agents }, (_, a) => user('agent', `Agent ${a + 1}`)));
  return {
    tenantId: tenant.id,
    knowledgeBaseId: tenant.defaultKnowledgeBaseId,
    operatorId: operator.id,
    operatorKey: operator.operatorKey,
    agents: created.map(({ id, name: agentName, token }) => ({ id, name: agentName, token })),
    asAdmin: createApiClient({ baseUrl: on.apiUrl, headers: { authorization: `Bearer ${admin.token}` } }),
  };
}

/**
 * A conversation that needs a person, written as the worker writes it: the record, its handoff (status
 * `waiting_for_agent`), its team and agent (or none), and, being answered, the agent's takeover.
 */
async function needingPerson(
  records: ConversationRecords,
  tenant: { tenantId: string; operatorId: string; knowledgeBaseId: string },
  n: number,
  { teamId, agent, answering }: { teamId: string; agent: Agent | null; answering: boolean },
) {
  const messaging = random() < 0.3;
  const ref = {
    conversationId: randomUUID(),
    tenantId: tenant.tenantId,
    operatorId: tenant.operatorId,
    knowledgeBaseId: tenant.knowledgeBaseId,
    channel: messaging ? ('messaging' as const) : ('widget' as const),
    locale: 'en' as const,
    ...(messaging ? { messaging: { connectionId: 'bench-connection', customer: String(491_500_000_000 + n) } } : {}),
  };
  await records.create({ ...ref, visitorTokenHash: '', contact: { name: `Customer ${n}` } });
  await records.setStatus(ref, 'waiting_for_agent', null);
  await records.assign(ref, { teamId, assignee: agent ? { id: agent.id, name: agent.name } : null });
  if (answering && agent) await records.setStatus(ref, 'agent', agent.name, agent.id);
  return ref.conversationId;
}

async function getJson(on: MeasuredStack, path: string, headers: Record<string, string>): Promise<any> {
  const response = await fetch(`${on.apiUrl}${path}`, { headers });
  const body = await response.json();
  if (response.status !== 200) throw new Error(`GET ${path} answered ${response.status}: ${JSON.stringify(body)}`);
  return body;
}

/**
 * The agent's inbox page: GET /agent/events held open, each event told to `onEvent` (its data left
 * unparsed: the list events are large and many). `ready` once the first event (the list) arrived.
 */
function followInbox(on: MeasuredStack, agent: Agent, signal: AbortSignal, onEvent: (event: string, data: string) => void) {
  let markReady!: () => void;
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  const done = (async () => {
    const response = await fetch(`${on.apiUrl}/agent/events`, {
      headers: { authorization: `Bearer ${agent.token}`, accept: 'text/event-stream' },
      signal,
    });
    if (response.status !== 200) throw new Error(`GET /agent/events answered ${response.status}: ${await response.text()}`);
    const parser = createParser({
      onEvent(message) {
        onEvent(message.event ?? 'message', message.data);
        markReady();
      },
    });
    const decoder = new TextDecoder();
    const reader = response.body!.getReader();
    for (;;) {
      const { done: ended, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (ended) break;
      parser.feed(decoder.decode(value, { stream: true }));
    }
  })().catch((error: unknown) => {
    if (!signal.aborted) throw error;
  });
  return { ready: Promise.race([ready, done.then(() => Promise.reject(new Error(`${agent.name}'s inbox stream ended`)))]), done };
}
