import { randomUUID } from 'node:crypto';
import test from 'ava';
import { createConversationRecords } from '#conversations/records.js';
import { chattingTenant, readEventStream, type ChatVisitor } from '#testing/chat.js';
import { eventually } from '#testing/eventually.js';
import { startIngestionStack, type IngestionStack } from '#testing/ingestion.js';
import { channelStateOf } from '#testing/messaging-tenant.js';
import type { TestApi } from '#testing/api.js';
import { assertMatchesSchema } from '#testing/schema.js';
import { errorBody } from '#api/schemas/common.js';
import { agentConversationResponse, conversationListResponse, statusResponse } from '#api/schemas/agent.js';

let stack: IngestionStack;
let api: TestApi;
test.before(async () => {
  stack = await startIngestionStack({ CHAT_VISITOR_PER_MINUTE: '1000' });
  api = stack.api;
});
test.after.always(() => stack?.close());

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** A tenant with an operator, two agents and an admin, and a helper to call the inbox as each. */
async function inboxTenant() {
  const tenant = await chattingTenant(api);
  const user = async (name: string, role: string) =>
    bearer(
      (await api.admin('POST', `/admin/tenants/${tenant.tenant.id}/users`, { name, email: `${randomUUID()}@shop.example`, role }))
        .body.token,
    );
  return { ...tenant, ada: await user('Ada', 'agent'), bob: await user('Bob', 'agent'), admin: await user('Alex', 'admin') };
}

const as = (headers: Record<string, string>) => ({
  get: (path: string) => api.request('GET', path, { headers }),
  post: (path: string, body?: unknown) => api.request('POST', path, { headers, body }),
});

/** A widget visitor who has asked for a person, once the inbox shows them waiting. */
async function waitingVisitor(chat: Awaited<ReturnType<typeof inboxTenant>>['chat'], headers: Record<string, string>) {
  const visitor = await chat.start({ contact: { name: 'Grace', email: 'grace@example.com' } });
  const handoff = await api.request('POST', `/chat/conversations/${visitor.conversationId}/handoff`, {
    headers: visitor.headers,
  });
  if (handoff.status !== 202) throw new Error(`handoff answered ${handoff.status}`);
  await eventually(
    () => as(headers).get(`/agent/conversations/${visitor.conversationId}`),
    (response) => response.body?.status === 'waiting_for_agent',
  );
  return visitor;
}

const ids = (response: { body: { conversations: Array<{ conversationId: string }> } }) =>
  response.body.conversations.map((conversation) => conversation.conversationId);

test('the inbox lists a widget conversation waiting for a person, and filters by status and channel', async (t) => {
  const { chat, ada, admin } = await inboxTenant();
  const withAi = await chat.start();
  const waiting = await waitingVisitor(chat, ada);

  const list = await as(ada).get('/agent/conversations');
  t.is(list.status, 200);
  assertMatchesSchema(t, conversationListResponse, list.body);
  t.deepEqual(ids(list), [waiting.conversationId], 'by default only those that need a person');
  const [entry] = list.body.conversations;
  t.like(entry, { channel: 'widget', status: 'waiting_for_agent', agentName: null, contact: { name: 'Grace' } });
  t.false('windowOpenUntil' in entry, 'no window on the widget');
  t.false('deliveryProblem' in entry);

  t.deepEqual(ids(await as(admin).get('/agent/conversations?status=ai')), [withAi.conversationId], 'admins work the inbox too');
  t.deepEqual(
    ids(await as(ada).get('/agent/conversations?status=all')),
    [waiting.conversationId, withAi.conversationId],
    'every status, newest activity first',
  );
  t.deepEqual(ids(await as(ada).get('/agent/conversations?status=all&channel=widget')).length, 2);
  t.deepEqual(ids(await as(ada).get('/agent/conversations?status=all&channel=messaging')), []);
  t.is(ids(await as(ada).get('/agent/conversations?status=all&limit=1')).length, 1);

  for (const query of ['status=open', 'channel=sms', 'limit=0', 'limit=201', 'limit=many', 'colour=red']) {
    const invalid = await as(ada).get(`/agent/conversations?${query}`);
    t.is(invalid.status, 400, query);
    t.is(invalid.body.error.code, 'invalid_payload', query);
  }
});

test('an agent takes over, replies, hands back and closes; another agent is refused with the reason', async (t) => {
  const { chat, ada, bob } = await inboxTenant();
  const visitor = await waitingVisitor(chat, ada);
  const path = `/agent/conversations/${visitor.conversationId}`;

  const read = await as(ada).get(path);
  t.is(read.status, 200);
  assertMatchesSchema(t, agentConversationResponse, read.body);
  t.like(read.body, { conversationId: visitor.conversationId, channel: 'widget', status: 'waiting_for_agent' });
  t.is(read.body.messages[0].id, 'greeting');

  const takeOver = await as(ada).post(`${path}/take-over`);
  t.is(takeOver.status, 200);
  assertMatchesSchema(t, statusResponse, takeOver.body);
  t.deepEqual(takeOver.body, { status: 'agent' });
  t.like((await as(ada).get(path)).body, { status: 'agent', agentName: 'Ada' });
  t.deepEqual((await as(ada).post(`${path}/take-over`)).body, { status: 'agent' }, 'taking over again changes nothing');

  const stolen = await as(bob).post(`${path}/take-over`);
  t.is(stolen.status, 409);
  assertMatchesSchema(t, errorBody, stolen.body);
  t.is(stolen.body.error.code, 'conflict');
  t.regex(stolen.body.error.message, /Ada has already taken this conversation over/);

  const bobReply = await as(bob).post(`${path}/messages`, { text: 'Hi, Bob here.' });
  t.is(bobReply.status, 409);
  t.is(bobReply.body.error.code, 'conflict');

  for (const body of [
    { text: '' },
    { text: '   ' },
    {},
    { text: 'x'.repeat(4097) },
    { text: 'hi', messageId: 'nope' },
    { text: 'hi', extra: 1 },
  ]) {
    const invalid = await as(ada).post(`${path}/messages`, body);
    t.is(invalid.status, 400, JSON.stringify(body).slice(0, 40));
    t.is(invalid.body.error.code, 'invalid_payload');
  }

  const messageId = randomUUID();
  const reply = await as(ada).post(`${path}/messages`, { text: 'Hello Grace, Ada here. <b>How can I help?</b>', messageId });
  t.is(reply.status, 202);
  t.deepEqual(reply.body, { messageId });
  const transcript = await eventually(
    () => as(ada).get(path),
    (response) => response.body.messages.some((message: { id: string }) => message.id === messageId),
  );
  const sent = transcript.body.messages.find((message: { id: string }) => message.id === messageId);
  t.like(sent, {
    author: 'agent',
    text: 'Hello Grace, Ada here. <b>How can I help?</b>',
    aiGenerated: false,
    agent: { name: 'Ada' },
  });
  const history = await chat.history(visitor);
  t.true(
    history.body.messages.some((message: { id: string }) => message.id === messageId),
    'the visitor sees the reply',
  );

  t.is((await as(bob).post(`${path}/hand-back`)).status, 409, 'only the agent who has it hands it back');
  const handBack = await as(ada).post(`${path}/hand-back`);
  t.is(handBack.status, 200);
  t.deepEqual(handBack.body, { status: 'ai' });
  t.is((await as(ada).post(`${path}/messages`, { text: 'still there?' })).status, 409, 'no replies once the AI has it');

  const close = await as(ada).post(`${path}/close`);
  t.is(close.status, 200);
  t.deepEqual(close.body, { status: 'closed' });
  t.is((await as(ada).get(path)).body.status, 'closed');
  for (const action of ['take-over', 'hand-back', 'close']) {
    const again = await as(ada).post(`${path}/${action}`);
    t.is(again.status, 409, action);
    t.is(again.body.error.code, 'conversation_closed', action);
  }
  t.is((await as(ada).post(`${path}/messages`, { text: 'hello?' })).body.error.code, 'conversation_closed');
});

test('authentication and tenant isolation: 401 without a token, 403 for another tenant, 404 for unknown ids', async (t) => {
  const { chat, ada } = await inboxTenant();
  const other = await inboxTenant();
  const visitor: ChatVisitor = await chat.start();
  const path = `/agent/conversations/${visitor.conversationId}`;

  for (const headers of [{}, bearer('not-a-token')]) {
    const response = await api.request('GET', '/agent/conversations', { headers });
    t.is(response.status, 401);
    t.is(response.body.error.code, 'unauthorized');
  }
  t.is((await api.request('GET', '/agent/conversations?token=whatever')).status, 401, 'no token in the URL outside the streams');
  const apiKey = await api.request('GET', '/agent/conversations', { headers: other.headers });
  t.is(apiKey.status, 401, 'an API key is not a user token');

  for (const [method, suffix] of [
    ['GET', ''],
    ['GET', '/events'],
    ['POST', '/take-over'],
    ['POST', '/hand-back'],
    ['POST', '/close'],
  ] as const) {
    const response = await api.request(method, path + suffix, { headers: other.ada });
    t.is(response.status, 403, `${method} ${suffix}`);
    assertMatchesSchema(t, errorBody, response.body);
    t.is(response.body.error.code, 'forbidden');
  }
  t.is((await as(other.ada).post(`${path}/messages`, { text: 'hi' })).status, 403);
  t.deepEqual(ids(await as(other.ada).get('/agent/conversations?status=all')), [], "another tenant's list is its own");

  for (const id of [randomUUID(), 'not-a-uuid']) {
    const response = await as(ada).get(`/agent/conversations/${id}`);
    t.is(response.status, 404, id);
    t.is(response.body.error.code, 'not_found');
    t.is((await as(ada).post(`/agent/conversations/${id}/take-over`)).status, 404);
  }
});

test('the event streams: the inbox as it changes, and a conversation with its new messages; ?token= works there', async (t) => {
  const { chat, ada } = await inboxTenant();
  const token = ada.authorization.slice('Bearer '.length);
  const sentAt = performance.now();
  const inboxResponse = await fetch(`${api.url}/agent/events?token=${encodeURIComponent(token)}`);
  t.is(inboxResponse.status, 200);
  t.regex(inboxResponse.headers.get('content-type') ?? '', /text\/event-stream/);
  const visitor = await chat.start();
  const inboxEvents = readEventStream(inboxResponse, sentAt, (event) =>
    event.data.conversations?.some(
      (entry: { conversationId: string; status: string }) =>
        entry.conversationId === visitor.conversationId && entry.status === 'waiting_for_agent',
    ),
  );
  await api.request('POST', `/chat/conversations/${visitor.conversationId}/handoff`, { headers: visitor.headers });
  const events = await inboxEvents;
  t.is(events[0]?.event, 'inbox');
  t.deepEqual(events[0]?.data, { conversations: [] }, 'the list at once, empty');
  t.like(
    events
      .at(-1)
      ?.data.conversations.find((entry: { conversationId: string }) => entry.conversationId === visitor.conversationId),
    { conversationId: visitor.conversationId, status: 'waiting_for_agent' },
  );

  const follow = await fetch(`${api.url}/agent/conversations/${visitor.conversationId}/events`, { headers: ada });
  t.is(follow.status, 200);
  const conversationEvents = readEventStream(follow, performance.now(), (event) => event.data.message?.text === 'Are you there?');
  t.is((await as(ada).post(`/agent/conversations/${visitor.conversationId}/take-over`)).status, 200);
  await chat.ask(visitor, 'Are you there?');
  const seen = await conversationEvents;
  t.is(seen[0]?.event, 'conversation');
  t.is(seen[0]?.data.conversationId, visitor.conversationId);
  t.true(Array.isArray(seen[0]?.data.messages));
  t.true(seen.some((event) => event.event === 'status' && event.data.status === 'agent' && event.data.agentName === 'Ada'));
  t.like(seen.at(-1), { event: 'message', data: { message: { author: 'visitor', text: 'Are you there?' } } });
  t.false(
    seen.some((event) => event.event === 'token'),
    'no AI tokens',
  );

  const badToken = await fetch(`${api.url}/agent/events?token=nope`);
  t.is(badToken.status, 401);
  await badToken.body?.cancel();
});

test('a messaging conversation shows its window and delivery problem, and a reply after the window is refused first', async (t) => {
  const { tenant, operator, ada } = await inboxTenant();
  // A messaging conversation as the inbound side records it (no workflow: the refusal must come first).
  const records = createConversationRecords(api.redis, api.config.redis.prefix);
  const channel = channelStateOf(api);
  const conversationId = randomUUID();
  await records.create({
    conversationId,
    tenantId: tenant.id,
    operatorId: operator.id,
    knowledgeBaseId: tenant.defaultKnowledgeBaseId,
    channel: 'messaging',
    locale: 'en',
    messaging: { connectionId: randomUUID(), customer: '4915123456789' },
    visitorTokenHash: '',
    contact: { name: '+49 151 23456789' },
  });
  await records.setStatus({ conversationId, tenantId: tenant.id }, 'waiting_for_agent', null);
  const path = `/agent/conversations/${conversationId}`;

  const unknownWindow = (await as(ada).get('/agent/conversations?channel=messaging')).body.conversations;
  t.like(unknownWindow, [{ conversationId, channel: 'messaging', windowOpenUntil: null, deliveryProblem: null }]);
  const refused = await as(ada).post(`${path}/messages`, { text: 'Hello!' });
  t.is(refused.status, 409);
  t.is(refused.body.error.code, 'window_closed');
  t.regex(refused.body.error.message, /more than 24 hours ago/);

  const wroteAt = new Date(Date.now() - 25 * 3600_000);
  await channel.noteCustomerMessage(conversationId, wroteAt);
  const problem = { code: 'undeliverable', message: 'The number is not on WhatsApp.', at: new Date().toISOString() };
  await channel.recordFailed(conversationId, randomUUID(), problem);
  const read = await as(ada).get(path);
  assertMatchesSchema(t, agentConversationResponse, read.body);
  t.is(read.body.windowOpenUntil, new Date(wroteAt.getTime() + 24 * 3600_000).toISOString());
  t.deepEqual(read.body.deliveryProblem, problem);
  t.is((await as(ada).post(`${path}/messages`, { text: 'Hello!' })).body.error.code, 'window_closed');
});
