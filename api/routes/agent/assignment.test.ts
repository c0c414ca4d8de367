import { randomUUID } from 'node:crypto';
import test from 'ava';
import { chattingTenant } from '#testing/chat.js';
import { eventually } from '#testing/eventually.js';
import { openInboxPage } from '#testing/inbox-page.js';
import { startIngestionStack, type IngestionStack } from '#testing/ingestion.js';
import type { TestApi } from '#testing/api.js';
import { assertMatchesSchema } from '#testing/schema.js';
import { errorBody } from '#api/schemas/common.js';
import { agentConversationResponse, conversationListResponse } from '#api/schemas/agent.js';
import { agentListResponse, assignResponse, routingResponse, teamResponse } from '#api/schemas/teams.js';

let stack: IngestionStack;
let api: TestApi;
test.before(async () => {
  stack = await startIngestionStack({ CHAT_VISITOR_PER_MINUTE: '1000' });
  api = stack.api;
});
test.after.always(() => stack?.close());

interface Person {
  id: string;
  name: string;
  headers: Record<string, string>;
}

/** A tenant with an admin and agents, and helpers to call the API as each. */
async function teamTenant(agentNames: string[]) {
  const tenant = await chattingTenant(api);
  const user = async (name: string, role: string): Promise<Person> => {
    const { body } = await api.admin('POST', `/admin/tenants/${tenant.tenant.id}/users`, {
      name,
      email: `${randomUUID()}@shop.example`,
      role,
    });
    return { id: body.id, name, headers: { authorization: `Bearer ${body.token}` } };
  };
  const admin = await user('Alex', 'admin');
  const agents: Person[] = [];
  for (const name of agentNames) agents.push(await user(name, 'agent'));
  return { ...tenant, admin, agents };
}

const call = (person: Person, method: string, path: string, body?: unknown) =>
  api.request(method, path, { headers: person.headers, ...(body === undefined ? {} : { body }) });

const openInbox = (person: Person) => openInboxPage(api.url, person.headers);

/** A visitor who asked for a person (what they wrote first, for routing's keywords). */
async function handOff(chat: Awaited<ReturnType<typeof teamTenant>>['chat'], firstMessage?: string) {
  const visitor = await chat.start({ contact: { name: 'Grace' } });
  if (firstMessage) await chat.ask(visitor, firstMessage);
  const handoff = await api.request('POST', `/chat/conversations/${visitor.conversationId}/handoff`, {
    headers: visitor.headers,
  });
  if (handoff.status !== 202) throw new Error(`handoff answered ${handoff.status}`);
  return visitor;
}

const read = (person: Person, conversationId: string) => call(person, 'GET', `/agent/conversations/${conversationId}`);

test('teams and routing: admins change them, agents read them, refusals name what is wrong', async (t) => {
  const { admin, agents, operator } = await teamTenant(['Ada']);
  const [ada] = agents;
  const created = await call(admin, 'POST', '/teams', { name: 'Billing', memberIds: [ada!.id] });
  t.is(created.status, 201);
  assertMatchesSchema(t, teamResponse, created.body);
  t.like(created.body.team, {
    name: 'Billing',
    memberIds: [ada!.id],
    assignment: { automatic: true, capacity: 5, offerSeconds: 120 },
  });
  const teamId = created.body.team.id as string;

  t.is((await call(ada!, 'GET', '/teams')).body.teams.length, 1, 'agents read the teams');
  const agentWrites = await call(ada!, 'POST', '/teams', { name: 'Mine', memberIds: [] });
  t.is(agentWrites.status, 403);
  assertMatchesSchema(t, errorBody, agentWrites.body);

  const stranger = randomUUID();
  const badMember = await call(admin, 'PATCH', `/teams/${teamId}`, { memberIds: [ada!.id, stranger] });
  t.is(badMember.status, 400);
  t.deepEqual(badMember.body.error.details, [{ path: '/memberIds/1', message: `no user ${stranger} in this tenant` }]);
  for (const body of [
    {},
    { name: '' },
    { name: 'X', memberIds: ['nope'] },
    { name: 'X', memberIds: [], assignment: { capacity: 0 } },
  ]) {
    const invalid = await call(admin, 'POST', '/teams', body);
    t.is(invalid.status, 400, JSON.stringify(body));
    t.is(invalid.body.error.code, 'invalid_payload');
  }

  const routing = {
    rules: [
      { teamId, keywords: ['refund'] },
      { teamId, operatorId: operator.id, channel: 'messaging' },
    ],
    defaultTeamId: teamId,
  };
  const set = await call(admin, 'PUT', '/team-routing', routing);
  t.is(set.status, 200);
  assertMatchesSchema(t, routingResponse, set.body);
  t.deepEqual((await call(ada!, 'GET', '/team-routing')).body.routing, routing);
  const unknown = await call(admin, 'PUT', '/team-routing', { rules: [{ teamId: stranger }], defaultTeamId: null });
  t.is(unknown.status, 400);
  t.deepEqual(unknown.body.error.details, [{ path: '/rules/0/teamId', message: `no team ${stranger} in this tenant` }]);

  // Another tenant sees none of it.
  const other = await teamTenant([]);
  t.deepEqual((await call(other.admin, 'GET', '/teams')).body.teams, []);
  t.is((await call(other.admin, 'GET', `/teams/${teamId}`)).status, 404);
  t.is((await call(other.admin, 'DELETE', `/teams/${teamId}`)).status, 404);

  t.is((await call(admin, 'DELETE', `/teams/${teamId}`)).status, 204);
  t.deepEqual(
    (await call(admin, 'GET', '/team-routing')).body.routing,
    { rules: [], defaultTeamId: null },
    'it leaves the routing',
  );
});

test('a handoff is routed to its team and given to the present, least loaded agent, who hears of it at once', async (t) => {
  const { admin, agents, chat } = await teamTenant(['Ada', 'Bob', 'Cy']);
  const [ada, bob, cy] = agents as [Person, Person, Person];
  const billing = (await call(admin, 'POST', '/teams', { name: 'Billing', memberIds: [ada.id, bob.id] })).body.team;
  const general = (await call(admin, 'POST', '/teams', { name: 'General', memberIds: [cy.id] })).body.team;
  await call(admin, 'PUT', '/team-routing', { rules: [{ teamId: billing.id, keywords: ['refund'] }], defaultTeamId: general.id });

  const adaInbox = await openInbox(ada);
  // Bob has no page open: he is offline and given nothing. Cy is away.
  const cyInbox = await openInbox(cy);
  await call(cy, 'PUT', '/agent/availability', { availability: 'away' });
  try {
    const refund = await handOff(chat, 'I want a refund for my order');
    const assigned = await eventually(
      () => read(ada, refund.conversationId),
      (response) => response.body?.assignee !== null && response.body?.assignee !== undefined,
    );
    assertMatchesSchema(t, agentConversationResponse, assigned.body);
    t.like(assigned.body, { status: 'waiting_for_agent', teamId: billing.id, assignee: { id: ada.id, name: 'Ada' } });
    await eventually(
      async () => adaInbox.events,
      (events) => events.some((e) => e.event === 'assigned' && e.data.conversationId === refund.conversationId),
    );

    // The change is in the agents' transcript, privately, and never in the visitor's.
    const entry = assigned.body.messages.find(
      (message: { author: string; private?: boolean }) => message.private && message.author === 'system',
    );
    t.like(entry, { text: 'Assigned to Ada (Billing), automatically.', assignment: { teamId: billing.id, reason: 'routed' } });
    const history = await api.request('GET', `/chat/conversations/${refund.conversationId}/messages`, {
      headers: refund.headers,
    });
    t.false(JSON.stringify(history.body).includes('Assigned to'), 'the visitor never sees it');

    // The inbox's filters.
    const mine = await call(ada, 'GET', '/agent/conversations?assignee=mine');
    assertMatchesSchema(t, conversationListResponse, mine.body);
    t.deepEqual(
      mine.body.conversations.map((c: { conversationId: string }) => c.conversationId),
      [refund.conversationId],
    );
    t.deepEqual((await call(bob, 'GET', '/agent/conversations?assignee=mine')).body.conversations, []);
    t.is((await call(bob, 'GET', `/agent/conversations?teamId=${billing.id}`)).body.conversations.length, 1);
    for (const query of ['assignee=me', 'teamId=billing'])
      t.is((await call(ada, 'GET', `/agent/conversations?${query}`)).status, 400, query);

    // No rule matches: the default team, whose only member is away: it waits, nobody's.
    const other = await handOff(chat, 'where is my parcel');
    await eventually(
      () => read(ada, other.conversationId),
      (response) => response.body?.teamId === general.id,
    );
    t.is((await read(ada, other.conversationId)).body.assignee, null);
    const unassigned = await call(ada, 'GET', '/agent/conversations?assignee=unassigned');
    t.deepEqual(
      unassigned.body.conversations.map((c: { conversationId: string }) => c.conversationId),
      [other.conversationId],
    );

    // Cy comes back: the waiting conversation is offered to her at once.
    const back = await call(cy, 'PUT', '/agent/availability', { availability: 'available' });
    t.deepEqual(back.body, { availability: 'available', chosen: 'available' });
    await eventually(
      () => read(cy, other.conversationId),
      (response) => response.body?.assignee?.id === cy.id,
    );

    const team = await call(ada, 'GET', '/agent/agents');
    assertMatchesSchema(t, agentListResponse, team.body);
    const byName = Object.fromEntries(team.body.agents.map((agent: { name: string }) => [agent.name, agent]));
    t.like(byName.Ada, { availability: 'available', load: 1, teamIds: [billing.id] });
    t.like(byName.Bob, { availability: 'offline', load: 0 });
    t.like(byName.Cy, { availability: 'available', load: 1, teamIds: [general.id] });
  } finally {
    adaInbox.close();
    cyInbox.close();
  }
});

test('assigning by hand: to a colleague, to nobody, an AI conversation; refusals in the one error shape', async (t) => {
  const { admin, agents, chat } = await teamTenant(['Ada', 'Bob']);
  const [ada, bob] = agents as [Person, Person];
  const visitor = await chat.start();
  const path = `/agent/conversations/${visitor.conversationId}`;

  // An AI conversation assigned by hand is handed to a person.
  const toAda = await call(admin, 'POST', `${path}/assign`, { agentId: ada.id });
  t.is(toAda.status, 200);
  assertMatchesSchema(t, assignResponse, toAda.body);
  t.like(toAda.body, { status: 'waiting_for_agent', assignee: { id: ada.id, name: 'Ada' } });

  t.is((await call(ada, 'POST', `${path}/take-over`)).status, 200);
  const refused = await call(ada, 'POST', `${path}/assign`, { agentId: null });
  t.is(refused.status, 409);
  assertMatchesSchema(t, errorBody, refused.body);
  t.regex(refused.body.error.message, /Ada is answering this conversation/);

  // Passed to Bob while Ada answers: Bob answers from now on.
  const toBob = await call(ada, 'POST', `${path}/assign`, { agentId: bob.id });
  t.like(toBob.body, { status: 'agent', assignee: { id: bob.id, name: 'Bob' } });
  t.is((await call(ada, 'POST', `${path}/messages`, { text: 'Ada here' })).status, 409);
  t.is((await call(bob, 'POST', `${path}/messages`, { text: 'Bob here' })).status, 202);
  const transcript = (await read(bob, visitor.conversationId)).body.messages;
  t.deepEqual(
    transcript.filter((m: { assignment?: unknown }) => m.assignment).map((m: { text: string }) => m.text),
    ['Alex assigned it to Ada.', 'Ada assigned it to Bob.'],
  );

  const stranger = randomUUID();
  const noSuchAgent = await call(admin, 'POST', `${path}/assign`, { agentId: stranger });
  t.is(noSuchAgent.status, 400);
  t.deepEqual(noSuchAgent.body.error.details, [{ path: '/agentId', message: `no active user ${stranger} in this tenant` }]);
  for (const body of [{}, { agentId: 'x' }, { agentId: null, extra: 1 }])
    t.is((await call(admin, 'POST', `${path}/assign`, body)).status, 400, JSON.stringify(body));

  const other = await teamTenant([]);
  t.is((await call(other.admin, 'POST', `${path}/assign`, { agentId: null })).status, 403, "another tenant's conversation");

  t.is((await call(bob, 'POST', `${path}/close`)).status, 200);
  t.is((await call(admin, 'POST', `${path}/assign`, { agentId: ada.id })).body.error.code, 'conversation_closed');
});

test.serial('a handoff while no worker runs is assigned once one starts, to one agent, with one entry', async (t) => {
  const { admin, agents, chat } = await teamTenant(['Ada']);
  const [ada] = agents as [Person];
  const team = (await call(admin, 'POST', '/teams', { name: 'Support', memberIds: [ada.id] })).body.team;
  await call(admin, 'PUT', '/team-routing', { rules: [], defaultTeamId: team.id });
  const inbox = await openInbox(ada);
  const visitor = await chat.start();
  await stack.stopWorker();
  try {
    const handoff = await api.request('POST', `/chat/conversations/${visitor.conversationId}/handoff`, {
      headers: visitor.headers,
    });
    t.is(handoff.status, 202, 'accepted while no worker runs');
  } finally {
    await stack.startWorker();
  }
  try {
    const assigned = await eventually(
      () => read(ada, visitor.conversationId),
      (response) => response.body?.assignee?.id === ada.id,
      { timeoutMs: 60_000 },
    );
    const entries = assigned.body.messages.filter((message: { assignment?: unknown }) => message.assignment);
    t.is(entries.length, 1);
    t.like(entries[0], { private: true, assignment: { teamId: team.id, reason: 'routed', assignee: { id: ada.id } } });
  } finally {
    inbox.close();
  }
});
