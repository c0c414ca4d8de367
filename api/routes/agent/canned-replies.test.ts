import { randomUUID } from 'node:crypto';
import test from 'ava';
import { cannedReplyLimits, createCannedReplies } from '#conversations/canned-replies.js';
import { createUser, type TestApi } from '#testing/api.js';
import { chattingTenant } from '#testing/chat.js';
import { eventually } from '#testing/eventually.js';
import { startIngestionStack, type IngestionStack } from '#testing/ingestion.js';
import { startFakeMessagingPlatform, type FakeMessagingPlatform } from '#testing/fake-messaging-platform.js';
import { messagingTenant } from '#testing/messaging-tenant.js';
import { tearDown } from '#testing/teardown.js';
import { assertMatchesSchema } from '#testing/schema.js';
import { errorBody } from '#api/schemas/common.js';
import { agentReplyResponse } from '#api/schemas/agent.js';
import { cannedReplyListResponse, cannedReplyPreviewResponse, cannedReplyResponse } from '#api/schemas/canned-replies.js';

/*
 * Canned replies against the real stack: saved per tenant, team or user, with who may change which;
 * searched; filled in for a conversation and sent as the agent's reply, within a reply's rules.
 */

let stack: IngestionStack;
let api: TestApi;
let platform: FakeMessagingPlatform;
test.before(async () => {
  platform = await startFakeMessagingPlatform();
  stack = await startIngestionStack({ CHAT_VISITOR_PER_MINUTE: '1000', GRAPH_API_BASE_URL: platform.url });
  api = stack.api;
});
test.after.always(() => tearDown({ ...stack?.closingSteps, platform: async () => platform?.close() }));

/** A tenant with an operator, two agents (Ada, Bob) and an admin (Alex), each with their headers. */
async function cannedTenant() {
  const tenant = await chattingTenant(api);
  const [ada, bob, admin] = await Promise.all([
    createUser(api, tenant.tenant.id, 'agent', 'Ada'),
    createUser(api, tenant.tenant.id, 'agent', 'Bob'),
    createUser(api, tenant.tenant.id, 'admin', 'Alex'),
  ]);
  return { ...tenant, ada, bob, admin };
}

type Headers = Record<string, string>;
const as = ({ headers }: { headers: Headers }) => ({
  get: (path: string) => api.request('GET', path, { headers }),
  post: (path: string, body?: unknown) => api.request('POST', path, { headers, body }),
  put: (path: string, body?: unknown) => api.request('PUT', path, { headers, body }),
  delete: (path: string) => api.request('DELETE', path, { headers }),
});

const reply = (shortcut: string, fields: Record<string, unknown> = {}) => ({
  shortcut,
  title: `About ${shortcut}`,
  text: `Hello {{contact.first_name | there}}, this is about ${shortcut}.`,
  scope: 'tenant',
  ...fields,
});

const shortcutsOf = (response: { body: { cannedReplies: Array<{ shortcut: string }> } }) =>
  response.body.cannedReplies.map(({ shortcut }) => shortcut);

test('admins share replies with the tenant and teams, agents keep personal ones; each sees what is theirs to use', async (t) => {
  const { ada, bob, admin } = await cannedTenant();
  const teamId = (await as(admin).post('/teams', { name: 'Billing', memberIds: [ada.id] })).body.team.id as string;
  const otherTeam = (await as(admin).post('/teams', { name: 'Sales', memberIds: [bob.id] })).body.team.id as string;
  const unknownTeam = await as(admin).post('/agent/canned-replies', reply('hours', { scope: 'team', teamId: randomUUID() }));
  t.is(unknownTeam.status, 400);
  t.is(unknownTeam.body.error.details[0].path, '/teamId');

  const shared = await as(admin).post('/agent/canned-replies', reply('refund', { title: 'Refund of your money' }));
  t.is(shared.status, 201);
  assertMatchesSchema(t, cannedReplyResponse, shared.body);
  t.like(shared.body, {
    scope: 'tenant',
    teamId: null,
    shortcut: 'refund',
    editable: true,
    placeholders: ['contact.first_name'],
  });
  const team = await as(admin).post('/agent/canned-replies', reply('hours', { scope: 'team', teamId }));
  t.is(team.status, 201);
  t.is(team.body.teamId, teamId);
  const mine = await as(ada).post('/agent/canned-replies', reply('refund', { scope: 'personal', text: 'My own refund words.' }));
  t.is(mine.status, 201, 'the same shortcut in another scope');
  t.like(mine.body, { scope: 'personal', editable: true, placeholders: [] });

  const adaList = await as(ada).get('/agent/canned-replies');
  t.is(adaList.status, 200);
  assertMatchesSchema(t, cannedReplyListResponse, adaList.body);
  t.deepEqual(
    adaList.body.cannedReplies.map(({ shortcut, scope }: { shortcut: string; scope: string }) => `${scope}:${shortcut}`),
    ['team:hours', 'personal:refund', 'tenant:refund'],
    "her team's, and her own first for the same shortcut",
  );
  t.false(
    adaList.body.cannedReplies.find(({ scope }: { scope: string }) => scope === 'tenant').editable,
    'an agent may not edit a tenant reply',
  );
  t.deepEqual(
    shortcutsOf(await as(ada).get(`/agent/canned-replies?teamId=${otherTeam}`)),
    ['refund', 'refund'],
    'only teams of hers',
  );
  t.deepEqual(
    shortcutsOf(await as(bob).get('/agent/canned-replies')),
    ['refund'],
    "Ada's personal reply is hers alone, and Billing's is not Bob's",
  );
  t.deepEqual(shortcutsOf(await as(admin).get('/agent/canned-replies')), ['hours', 'refund'], "admins see every team's");

  // Another user's personal reply does not exist for them; an agent may not touch the tenant's.
  const minePath = `/agent/canned-replies/${mine.body.id}`;
  for (const [who, what] of [
    [bob, 'agent'],
    [admin, 'admin'],
  ] as const) {
    for (const response of [
      await as(who).get(minePath),
      await as(who).put(minePath, reply('x', { scope: 'personal' })),
      await as(who).delete(minePath),
    ]) {
      t.is(response.status, 404, what);
      assertMatchesSchema(t, errorBody, response.body);
      t.is(response.body.error.code, 'not_found');
    }
  }
  const sharedPath = `/agent/canned-replies/${shared.body.id}`;
  for (const response of [
    await as(ada).put(sharedPath, reply('refund', { text: 'Changed by an agent' })),
    await as(ada).delete(sharedPath),
    await as(ada).post('/agent/canned-replies', reply('greeting')),
    await as(ada).post('/agent/canned-replies', reply('greeting', { scope: 'team', teamId })),
    await as(ada).put(minePath, reply('refund', { scope: 'tenant' })),
  ]) {
    t.is(response.status, 403);
    t.is(response.body.error.code, 'forbidden');
    t.regex(response.body.error.message, /Only an admin/);
  }
  t.is((await as(admin).get(sharedPath)).body.text, shared.body.text, 'nothing changed');

  // The owner changes and deletes their own; an admin the tenant's.
  const changed = await as(ada).put(
    minePath,
    reply('refund-mine', { scope: 'personal', title: 'Mine', text: 'Hi {{contact.name}}' }),
  );
  t.is(changed.status, 200);
  assertMatchesSchema(t, cannedReplyResponse, changed.body);
  t.like(changed.body, { id: mine.body.id, shortcut: 'refund-mine', title: 'Mine', createdAt: mine.body.createdAt });
  t.true(changed.body.updatedAt > mine.body.updatedAt);
  t.deepEqual((await as(ada).get(minePath)).body, changed.body);
  const moved = await as(admin).put(sharedPath, reply('refund', { scope: 'team', teamId }));
  t.like(moved.body, { scope: 'team', teamId });
  t.deepEqual(shortcutsOf(await as(bob).get('/agent/canned-replies')), [], 'moved to the team');
  t.is((await as(ada).delete(minePath)).status, 204);
  t.is((await as(ada).get(minePath)).status, 404);
  t.is((await as(ada).delete(minePath)).status, 404);
  t.is((await as(admin).delete(sharedPath)).status, 204);
  t.deepEqual(shortcutsOf(await as(admin).get(`/agent/canned-replies?teamId=${teamId}`)), ['hours']);
});

test('a shortcut is unique within its scope, and freed when its reply is deleted or renamed', async (t) => {
  const { ada, admin } = await cannedTenant();
  const first = await as(admin).post('/agent/canned-replies', reply('thanks'));
  const again = await as(admin).post('/agent/canned-replies', reply('thanks', { title: 'Other' }));
  t.is(again.status, 409);
  assertMatchesSchema(t, errorBody, again.body);
  t.is(again.body.error.code, 'shortcut_taken');
  t.is(again.body.error.details[0].path, '/shortcut');
  const other = await as(admin).post('/agent/canned-replies', reply('bye'));
  t.is((await as(admin).put(`/agent/canned-replies/${other.body.id}`, reply('thanks'))).body.error.code, 'shortcut_taken');
  t.is((await as(ada).post('/agent/canned-replies', reply('thanks', { scope: 'personal' }))).status, 201, "a user's own scope");

  t.is((await as(admin).put(`/agent/canned-replies/${first.body.id}`, reply('thank-you'))).status, 200);
  t.is((await as(admin).put(`/agent/canned-replies/${other.body.id}`, reply('thanks'))).status, 200, 'the old shortcut is free');
  t.is((await as(admin).delete(`/agent/canned-replies/${other.body.id}`)).status, 204);
  t.is((await as(admin).post('/agent/canned-replies', reply('thanks'))).status, 201, 'free again once deleted');
});

test("at once, the same shortcut is saved once; a tenant's 1,000 replies are its limit", async (t) => {
  const { tenant, admin } = await cannedTenant();
  const both = await Promise.all([1, 2].map(() => as(admin).post('/agent/canned-replies', reply('twice'))));
  t.deepEqual(both.map(({ status }) => status).sort(), [201, 409]);

  // The rest of the 1,000 through the store (a thousand requests would only be slower), the last through the API.
  const store = createCannedReplies(api.redis, api.config.redis.prefix);
  const user = { id: admin.id as string, tenantId: tenant.id };
  for (let n = 1; n < cannedReplyLimits.perTenant - 1; n++)
    await store.create(user, { scope: 'tenant', shortcut: `r${n}`, title: `Reply ${n}`, text: 'Text' });
  t.is((await as(admin).post('/agent/canned-replies', reply('last'))).status, 201);
  const full = await as(admin).post('/agent/canned-replies', reply('one-more', { scope: 'personal' }));
  t.is(full.status, 409);
  assertMatchesSchema(t, errorBody, full.body);
  t.is(full.body.error.code, 'canned_reply_limit_reached');
  t.regex(full.body.error.message, /at most 1000 canned replies/);
  t.is((await as(admin).get('/agent/canned-replies?limit=1000')).body.cannedReplies.length, cannedReplyLimits.perTenant);
});

test('search by shortcut and by the words of the title and text', async (t) => {
  const { ada, admin } = await cannedTenant();
  for (const [shortcut, title, text] of [
    ['refund', 'Refund of your money', 'It is on its way.'],
    ['refund-late', 'Late refund', 'Refunds take up to 10 days.'],
    ['shipping', 'Delivery times', 'Parcels arrive within 3 days.'],
  ] as const)
    t.is((await as(admin).post('/agent/canned-replies', { shortcut, title, text, scope: 'tenant' })).status, 201);

  t.deepEqual(shortcutsOf(await as(ada).get('/agent/canned-replies?q=ref')), ['refund', 'refund-late']);
  t.deepEqual(
    shortcutsOf(await as(ada).get(`/agent/canned-replies?q=${encodeURIComponent('/refund-')}`)),
    ['refund-late', 'refund'],
    'the shortcut that begins so first, then the word',
  );
  t.deepEqual(shortcutsOf(await as(ada).get('/agent/canned-replies?q=parcels')), ['shipping']);
  t.deepEqual(shortcutsOf(await as(ada).get(`/agent/canned-replies?q=${encodeURIComponent('late days')}`)), ['refund-late']);
  t.deepEqual(shortcutsOf(await as(ada).get('/agent/canned-replies?q=nothing')), []);
  t.deepEqual(shortcutsOf(await as(ada).get('/agent/canned-replies?limit=2')), ['refund', 'refund-late']);
});

test('unknown placeholders and invalid payloads are 400 in the one error shape, naming the problem', async (t) => {
  const { admin } = await cannedTenant();
  const unknown = await as(admin).post(
    '/agent/canned-replies',
    reply('typo', { text: 'Hi {{contact.nmae}}, {{order.id}} is late' }),
  );
  t.is(unknown.status, 400);
  assertMatchesSchema(t, errorBody, unknown.body);
  t.is(unknown.body.error.code, 'unknown_placeholder');
  t.regex(unknown.body.error.message, /\{\{contact\.nmae\}\}/);
  t.deepEqual(
    unknown.body.error.details.map(({ path, placeholder }: { path: string; placeholder: string }) => `${path} ${placeholder}`),
    ['/text contact.nmae', '/text order.id'],
  );
  const saved = await as(admin).post('/agent/canned-replies', reply('fine'));
  const unknownOnChange = await as(admin).put(
    `/agent/canned-replies/${saved.body.id}`,
    reply('fine', { text: '{{agent.nickname}}' }),
  );
  t.is(unknownOnChange.body.error.code, 'unknown_placeholder');

  for (const [body, path] of [
    [reply('Refund'), '/shortcut'],
    [reply('has space'), '/shortcut'],
    [reply('x'.repeat(41)), '/shortcut'],
    [reply(''), '/shortcut'],
    [reply('ok', { text: '   ' }), '/text'],
    [reply('ok', { text: 'x'.repeat(4097) }), '/text'],
    [reply('ok', { title: '' }), '/title'],
    [reply('ok', { title: 'bad \ud800 half' }), '/title'],
    [reply('ok', { scope: 'everyone' }), '/scope'],
    [reply('ok', { scope: 'team' }), '/teamId'],
    [reply('ok', { teamId: randomUUID() }), '/teamId'],
    [reply('ok', { scope: 'team', teamId: 'a/b' }), '/teamId'],
    [reply('ok', { colour: 'red' }), '/colour'],
    [{ shortcut: 'ok', title: 'T', scope: 'tenant' }, '/text'],
  ] as const) {
    const response = await as(admin).post('/agent/canned-replies', body);
    t.is(response.status, 400, JSON.stringify(body).slice(0, 60));
    assertMatchesSchema(t, errorBody, response.body);
    t.is(response.body.error.code, 'invalid_payload');
    t.true(
      response.body.error.details.some((detail: { path: string }) => detail.path === path),
      `${path}: ${JSON.stringify(response.body.error.details)}`,
    );
  }
  for (const query of ['limit=0', 'limit=1001', 'teamId=a/b', 'teamId=', 'colour=red']) {
    const response = await as(admin).get(`/agent/canned-replies?${query}`);
    t.is(response.status, 400, query);
    t.is(response.body.error.code, 'invalid_payload', query);
  }
  t.is((await as(admin).get('/agent/canned-replies/not-a-uuid')).status, 404);
  t.is((await as(admin).put(`/agent/canned-replies/${randomUUID()}`, reply('ok'))).status, 404);
  t.is((await api.request('GET', '/agent/canned-replies')).status, 401);
});

test("another tenant's reply is 403, never listed, never sent", async (t) => {
  const ours = await cannedTenant();
  const theirs = await cannedTenant();
  const saved = await as(theirs.admin).post('/agent/canned-replies', reply('secret'));
  const path = `/agent/canned-replies/${saved.body.id}`;
  for (const response of [
    await as(ours.admin).get(path),
    await as(ours.admin).put(path, reply('mine')),
    await as(ours.admin).delete(path),
  ]) {
    t.is(response.status, 403);
    t.is(response.body.error.code, 'forbidden');
  }
  t.deepEqual(shortcutsOf(await as(ours.admin).get('/agent/canned-replies')), []);
  t.is((await as(theirs.admin).get(path)).body.shortcut, 'secret', 'untouched');

  const visitor = await ours.chat.start();
  const conversationPath = `/agent/conversations/${visitor.conversationId}`;
  t.is((await as(ours.ada).get(`${conversationPath}/canned-replies/${saved.body.id}/preview`)).status, 403);
  const ownReply = await as(ours.admin).post('/agent/canned-replies', reply('ours'));
  t.is(
    (await as(theirs.ada).get(`${conversationPath}/canned-replies/${ownReply.body.id}/preview`)).status,
    403,
    "another tenant's conversation",
  );
  t.is((await as(theirs.ada).post(`${conversationPath}/canned-messages`, { cannedReplyId: ownReply.body.id })).status, 403);
});

test('a canned reply is filled in for the conversation and sent on the widget as the agent who has it', async (t) => {
  const { chat, ada, bob, admin } = await cannedTenant();
  const visitor = await chat.start({ contact: { name: 'Grace Hopper', email: 'grace@example.com' } });
  t.is(
    (await api.request('POST', `/chat/conversations/${visitor.conversationId}/handoff`, { headers: visitor.headers })).status,
    202,
  );
  const path = `/agent/conversations/${visitor.conversationId}`;
  const saved = await as(admin).post(
    '/agent/canned-replies',
    reply('welcome', {
      text: 'Hi {{contact.first_name}} ({{contact.email}}), {{agent.name}} here <{{ agent.email }}>. Ref {{conversation.id}}.',
    }),
  );
  const phone = await as(admin).post('/agent/canned-replies', reply('call', { text: 'We will call {{contact.phone}}.' }));
  const expected = `Hi Grace (grace@example.com), Ada here <${ada.email}>. Ref ${visitor.conversationId}.`;

  const preview = await as(ada).get(`${path}/canned-replies/${saved.body.id}/preview`);
  t.is(preview.status, 200);
  assertMatchesSchema(t, cannedReplyPreviewResponse, preview.body);
  t.deepEqual(preview.body, { cannedReplyId: saved.body.id, text: expected });
  const missing = await as(ada).get(`${path}/canned-replies/${phone.body.id}/preview`);
  t.is(missing.status, 400);
  assertMatchesSchema(t, errorBody, missing.body);
  t.is(missing.body.error.code, 'placeholder_missing');
  t.regex(missing.body.error.message, /\{\{contact\.phone\}\}/);

  t.is(
    (await as(ada).post(`${path}/canned-messages`, { cannedReplyId: saved.body.id })).body.error.code,
    'conflict',
    'taken over first',
  );
  t.is((await as(ada).post(`${path}/take-over`)).status, 200);
  const refused = await as(bob).post(`${path}/canned-messages`, { cannedReplyId: saved.body.id });
  t.is(refused.status, 409, 'only the agent who has it');
  t.is(refused.body.error.code, 'conflict');
  t.is((await as(ada).post(`${path}/canned-messages`, { cannedReplyId: phone.body.id })).body.error.code, 'placeholder_missing');
  for (const body of [
    {},
    { cannedReplyId: 'nope' },
    { cannedReplyId: saved.body.id, messageId: 'nope' },
    { cannedReplyId: saved.body.id, text: 'x' },
  ]) {
    const invalid = await as(ada).post(`${path}/canned-messages`, body);
    t.is(invalid.status, 400, JSON.stringify(body));
    t.is(invalid.body.error.code, 'invalid_payload');
  }
  const unknownReply = await as(ada).post(`${path}/canned-messages`, { cannedReplyId: randomUUID() });
  t.is(unknownReply.status, 404);
  t.is(unknownReply.body.error.details[0].path, '/cannedReplyId');

  const messageId = randomUUID();
  const sent = await as(ada).post(`${path}/canned-messages`, { cannedReplyId: saved.body.id, messageId });
  t.is(sent.status, 202);
  assertMatchesSchema(t, agentReplyResponse, sent.body);
  t.deepEqual(sent.body, { messageId });
  const history = await eventually(
    () => chat.history(visitor),
    (answer) => answer.body.messages.some((message: { id: string }) => message.id === messageId),
  );
  t.like(
    history.body.messages.find((message: { id: string }) => message.id === messageId),
    { author: 'agent', text: expected },
    'the visitor reads it filled in',
  );
  const again = await as(ada).post(`${path}/canned-messages`, { cannedReplyId: saved.body.id, messageId });
  t.is(again.status, 202, 'the same messageId attaches to the first');
  const seen = (await chat.history(visitor)).body.messages.filter((message: { id: string }) => message.id === messageId);
  t.is(seen.length, 1, 'sent once');

  t.is((await as(ada).post(`${path}/close`)).status, 200);
  t.is((await as(ada).post(`${path}/canned-messages`, { cannedReplyId: saved.body.id })).body.error.code, 'conversation_closed');
});

test('on the messaging channel a canned reply goes out within the 24-hour window, its number filled in, and is refused like a reply after it', async (t) => {
  const c = await messagingTenant(api, platform);
  await c.send(c.text('Where is my refund?'));
  const conversationId = (await eventually(
    () => c.conversationId(),
    (id) => id !== undefined,
    { timeoutMs: 30_000 },
  ))!;
  const [ada, admin] = await Promise.all([
    createUser(api, c.tenant.tenant.id, 'agent', 'Ada'),
    createUser(api, c.tenant.tenant.id, 'admin', 'Alex'),
  ]);
  const path = `/agent/conversations/${conversationId}`;
  t.is((await as(ada).post(`${path}/take-over`)).status, 200);
  const saved = await as(admin).post(
    '/agent/canned-replies',
    reply('call', { text: 'Hi {{contact.name}}, we will call {{contact.phone}} today.' }),
  );
  const expected = `Hi Grace, we will call +${c.customer} today.`;

  const preview = await as(ada).get(`${path}/canned-replies/${saved.body.id}/preview`);
  t.deepEqual(preview.body, { cannedReplyId: saved.body.id, text: expected });
  const sent = await as(ada).post(`${path}/canned-messages`, { cannedReplyId: saved.body.id });
  t.is(sent.status, 202);
  await eventually(
    async () => c.received(),
    (all) => all.some((message) => JSON.stringify(message.body).includes(expected)),
    { timeoutMs: 30_000 },
  );

  // The customer last wrote 25 hours ago: free text, canned or not, needs a template now.
  await api.redis.hSet(`${api.config.redis.prefix}:messaging:conversation:${conversationId}`, {
    lastCustomerMessageAt: String(Date.now() - 25 * 3600 * 1000),
  });
  const refused = await as(ada).post(`${path}/canned-messages`, { cannedReplyId: saved.body.id });
  t.is(refused.status, 409);
  assertMatchesSchema(t, errorBody, refused.body);
  t.is(refused.body.error.code, 'window_closed');
  t.regex(refused.body.error.message, /template/);
});
