import test from 'ava';
import { agentConversationResponse, conversationListResponse } from '#api/schemas/agent.js';
import { createUser } from '#testing/api.js';
import { readEventStream } from '#testing/chat.js';
import { eventually } from '#testing/eventually.js';
import {
  graphErrors,
  inboundText,
  startFakeMessagingPlatform,
  statusUpdate,
  type FakeMessagingPlatform,
} from '#testing/fake-messaging-platform.js';
import { startIngestionStack, type IngestionStack } from '#testing/ingestion.js';
import { messagingTenant } from '#testing/messaging-tenant.js';
import { assertMatchesSchema } from '#testing/schema.js';
import { shopItems } from '#testing/shop-content.js';

/*
 * The messaging channel as a customer and an agent see it (spec §5, §8, §13, §14): a message refused
 * for the closed window hands the customer to a person, whichever way the refusal comes; each message's
 * delivery in the agent API and its events; read receipts with "typing…"; replies quoting what they
 * answer; the customer's number; exact duplicate counts when two copies arrive at once. The real API,
 * worker, Temporal, Weaviate and Redis, and the fake platform.
 */

let stack: IngestionStack;
let platform: FakeMessagingPlatform;
test.before(async () => {
  platform = await startFakeMessagingPlatform();
  stack = await startIngestionStack({ GRAPH_API_BASE_URL: platform.url, CONVERSATION_IDLE_MINUTES: '30' });
});
test.after.always(async () => {
  await stack?.close();
  await platform?.close();
});

/** A connected tenant with content, a customer, and an agent working its inbox through the API. */
async function withAgent() {
  const connected = await messagingTenant(stack.api, platform, [shopItems.returns, shopItems.shipping]);
  const agent = await createUser(stack.api, connected.tenant.tenant.id as string, 'agent', 'Ada');
  const as = {
    get: (path: string) => stack.api.request('GET', path, { headers: agent.headers }),
    post: (path: string, body?: unknown) => stack.api.request('POST', path, { headers: agent.headers, body }),
  };
  /** The customer's conversation as the agent API shows it, once `done` says so. */
  const conversation = async (done: (body: any) => boolean = () => true, timeoutMs = 30_000) => {
    const conversationId = await eventually(
      () => connected.conversationId(),
      (id) => id !== undefined,
    );
    const read = await eventually(
      () => as.get(`/agent/conversations/${conversationId}`),
      (response) => response.status === 200 && done(response.body),
      { timeoutMs },
    );
    return read.body;
  };
  /** Waits until the platform received `count` messages for the customer. */
  const received = async (count: number) => {
    const sent = await eventually(
      async () => connected.received(),
      (messages) => messages.length >= count,
      { timeoutMs: 30_000 },
    );
    return sent;
  };
  const status = (messageId: string, value: 'sent' | 'delivered' | 'read' | 'failed') =>
    connected.send(
      statusUpdate({ phoneNumberId: connected.phoneNumberId, messageId, status: value, recipientId: connected.customer }),
    );
  return { connected, agent, as, conversation, received, status };
}

const aiMessages = (body: any) => (body.messages as any[]).filter((message) => message.author === 'ai');

test('131047 answered at once: the conversation waits for a person and the inbox says window_closed', async (t) => {
  const { connected, as, conversation, received } = await withAgent();
  platform.failNext(1, graphErrors.outsideWindow, { to: connected.customer });
  await connected.send(connected.text('How many days do I have to return an item?'));

  const body = await conversation((read) => read.status === 'waiting_for_agent');
  assertMatchesSchema(t, agentConversationResponse, body);
  t.is(body.status, 'waiting_for_agent');
  t.like(body.deliveryProblem, { code: 'window_closed' });
  t.like(aiMessages(body)[0], { delivery: { status: 'failed', error: { code: 'window_closed' } } });
  t.true(connected.calls().some((call) => call.code === 131047));
  t.is(connected.received().length, 0, 'nothing reached the customer, and no notice was tried for them');

  const list = await as.get('/agent/conversations');
  assertMatchesSchema(t, conversationListResponse, list.body);
  t.like(
    list.body.conversations.find((entry: any) => entry.conversationId === body.conversationId),
    { status: 'waiting_for_agent', deliveryProblem: { code: 'window_closed' } },
  );
});

test('131047 in a later failed status: the same code, and the same handoff through the workflow', async (t) => {
  const { connected, conversation, received, status } = await withAgent();
  await connected.send(connected.text('How many days do I have to return an item?'));
  const [answer] = await received(1);
  await conversation((read) => aiMessages(read)[0]?.delivery?.status === 'sent');

  await status(answer!.messageId, 'failed');
  const body = await conversation((read) => read.status === 'waiting_for_agent');
  t.is(body.status, 'waiting_for_agent');
  t.like(body.deliveryProblem, { code: 'window_closed' });
  t.like(aiMessages(body)[0], { delivery: { status: 'failed', error: { code: 'window_closed' } } });
});

test('131047 in a failed status while an agent has the conversation: it stays with the agent', async (t) => {
  const { connected, as, conversation, received, status } = await withAgent();
  await connected.send(connected.text('How many days do I have to return an item?'));
  await received(1);
  const { conversationId } = await conversation();
  t.is((await as.post(`/agent/conversations/${conversationId}/take-over`)).status, 200);
  t.is((await as.post(`/agent/conversations/${conversationId}/messages`, { text: 'Hello, Ada here.' })).status, 202);
  const sent = await received(3);
  const reply = sent.find((message) => (message.body.text as any)?.body?.includes('Ada here'));
  await conversation((read) => read.messages.some((m: any) => m.author === 'agent' && m.delivery?.status === 'sent'));

  await status(reply!.messageId, 'failed');
  const body = await conversation((read) => read.deliveryProblem?.code === 'window_closed');
  t.is(body.status, 'agent', 'an agent already has it');
  t.like(
    body.messages.find((m: any) => m.author === 'agent'),
    { delivery: { status: 'failed', error: { code: 'window_closed' } } },
  );
});

/** A customer message sent a minute ago: the window is open by our clock, and a refusal now comes after it. */
const aMinuteAgo = (connected: Awaited<ReturnType<typeof withAgent>>['connected'], text: string) =>
  inboundText({
    text,
    phoneNumberId: connected.phoneNumberId,
    from: connected.customer,
    name: 'Grace',
    timestamp: new Date(Date.now() - 60_000),
  });

/** The agent API's view of the window: the conversation, the templates route, and a free-text reply. */
async function windowSeenBy(as: Awaited<ReturnType<typeof withAgent>>['as'], conversationId: string) {
  const path = `/agent/conversations/${conversationId}`;
  const read = await as.get(path);
  const templates = await as.get(`${path}/templates`);
  return {
    open: Date.parse(read.body.windowOpenUntil) > Date.now(),
    sameInTemplates: templates.body.windowOpenUntil === read.body.windowOpenUntil,
  };
}

test('131047 at once while our clock says open: the window reads closed and free text is refused until the customer writes', async (t) => {
  const { connected, as, conversation, received } = await withAgent();
  await connected.send(aMinuteAgo(connected, 'How many days do I have to return an item?'));
  await received(1);
  const { conversationId } = await conversation();
  const path = `/agent/conversations/${conversationId}`;
  t.is((await as.post(`${path}/take-over`)).status, 200);
  await received(2); // the notice that Ada joined: the next send is the reply
  t.true((await windowSeenBy(as, conversationId)).open);

  platform.failNext(1, graphErrors.outsideWindow, { to: connected.customer });
  t.is((await as.post(`${path}/messages`, { text: 'Hello, Ada here.' })).status, 202);
  const failed = await conversation((read) => read.deliveryProblem?.code === 'window_closed');
  assertMatchesSchema(t, agentConversationResponse, failed);
  t.true(Date.parse(failed.windowOpenUntil) <= Date.now(), 'the platform closed it: the API says so');
  t.deepEqual(await windowSeenBy(as, conversationId), { open: false, sameInTemplates: true });
  const calls = connected.calls().length;
  const refused = await as.post(`${path}/messages`, { text: 'Are you there?' });
  t.is(refused.status, 409);
  t.is(refused.body.error.code, 'window_closed');
  t.is(connected.calls().length, calls, 'no free text was attempted');

  // The customer writes again: the window opens again, and a reply goes out.
  await connected.send(connected.text('Yes, still here.'));
  await conversation((read) => Date.parse(read.windowOpenUntil) > Date.now());
  t.deepEqual(await windowSeenBy(as, conversationId), { open: true, sameInTemplates: true });
  const before = connected.received().length;
  t.is((await as.post(`${path}/messages`, { text: 'Good: your return is approved.' })).status, 202);
  const sent = await received(before + 1);
  t.true(sent.some((message) => (message.body.text as any)?.body?.includes('return is approved')));
});

test('131047 in a later failed status while our clock says open: the window reads closed until the customer writes', async (t) => {
  const { connected, as, conversation, received, status } = await withAgent();
  await connected.send(aMinuteAgo(connected, 'How many days do I have to return an item?'));
  const [answer] = await received(1);
  const { conversationId } = await conversation((read) => aiMessages(read)[0]?.delivery?.status === 'sent');
  t.true((await windowSeenBy(as, conversationId)).open);

  await status(answer!.messageId, 'failed');
  const failed = await conversation((read) => read.deliveryProblem?.code === 'window_closed');
  t.true(Date.parse(failed.windowOpenUntil) <= Date.now());
  t.deepEqual(await windowSeenBy(as, conversationId), { open: false, sameInTemplates: true });
  const path = `/agent/conversations/${conversationId}`;
  t.is((await as.post(`${path}/take-over`)).status, 200);
  const refused = await as.post(`${path}/messages`, { text: 'Hello, Ada here.' });
  t.is(refused.status, 409);
  t.is(refused.body.error.code, 'window_closed');

  await connected.send(connected.text('Hello again'));
  await conversation((read) => Date.parse(read.windowOpenUntil) > Date.now());
  t.is((await as.post(`${path}/messages`, { text: 'Hello, Ada here.' })).status, 202);
});

test('each message carries its delivery, which moves only forward, with an event per move', async (t) => {
  const { connected, agent, conversation, received, status } = await withAgent();
  await connected.send(connected.text('How many days do I have to return an item?'));
  const [answer] = await received(1);
  const first = await conversation((read) => aiMessages(read)[0]?.delivery?.status === 'sent');
  assertMatchesSchema(t, agentConversationResponse, first);
  t.false('delivery' in first.messages.find((m: any) => m.author === 'visitor'), 'customer messages carry none');

  const token = agent.headers.authorization.slice('Bearer '.length);
  const follow = await fetch(`${stack.api.url}/agent/conversations/${first.conversationId}/events?token=${token}`);
  t.is(follow.status, 200);
  const events = readEventStream(
    follow,
    performance.now(),
    (event) => event.event === 'delivery' && event.data.delivery.status === 'read',
  );
  // Out of order, duplicated, and two at once: read wins, nothing goes back.
  await status(answer!.messageId, 'delivered');
  await status(answer!.messageId, 'delivered');
  await Promise.all([status(answer!.messageId, 'read'), status(answer!.messageId, 'delivered')]);
  await status(answer!.messageId, 'sent');
  const seen = await events;
  const moves = seen.filter((event) => event.event === 'delivery').map((event) => event.data);
  const aiId = aiMessages(first)[0].id;
  t.deepEqual(
    moves.map((move) => [move.messageId, move.delivery.status]),
    [
      [aiId, 'delivered'],
      [aiId, 'read'],
    ],
  );
  const last = await conversation();
  t.deepEqual(aiMessages(last)[0].delivery, { status: 'read' });

  // A failed status after read changes nothing either.
  await status(answer!.messageId, 'failed');
  t.deepEqual(aiMessages(await conversation())[0].delivery, { status: 'read' });
});

test('the AI marks the question read with typing and quotes it; an agent marks the latest read and quotes it', async (t) => {
  const { connected, as, conversation, received } = await withAgent();
  const question = connected.text('How many days do I have to return an item?');
  const questionId = question.entry[0].changes[0].value.messages[0].id as string;
  await connected.send(question);
  const [answer] = await received(1);
  t.deepEqual(
    platform.reads.filter((read) => read.phoneNumberId === connected.phoneNumberId).map((r) => [r.messageId, r.typing]),
    [[questionId, true]],
    'read with "typing…" before the answer went out',
  );
  t.true(platform.reads.find((read) => read.messageId === questionId)!.at <= answer!.at);
  t.deepEqual(answer!.body.context, { message_id: questionId });

  const { conversationId } = await conversation();
  t.is((await as.post(`/agent/conversations/${conversationId}/take-over`)).status, 200);
  const later = connected.text('Are you still there?');
  const laterId = later.entry[0].changes[0].value.messages[0].id as string;
  await connected.send(later);
  await conversation((read) => read.messages.some((m: any) => m.text === 'Are you still there?'));
  const before = connected.received().length;
  t.is((await as.post(`/agent/conversations/${conversationId}/messages`, { text: 'Yes, Ada here.' })).status, 202);
  const sent = await received(before + 1);
  const reply = sent.find((message) => (message.body.text as any)?.body?.includes('Ada here'))!;
  t.deepEqual(reply.body.context, { message_id: laterId });
  t.deepEqual(
    platform.reads.filter((read) => read.phoneNumberId === connected.phoneNumberId).map((r) => [r.messageId, r.typing]),
    [
      [questionId, true],
      [laterId, false],
    ],
  );
  t.false(
    connected.calls().some((call) => call.status !== 200),
    'every receipt and send was accepted',
  );
});

test("the inbox shows the customer's number beside the profile name", async (t) => {
  const { connected, as, conversation } = await withAgent();
  await connected.send(connected.text('How many days do I have to return an item?'));
  const body = await conversation();
  t.deepEqual(body.contact, { name: 'Grace', phone: `+${connected.customer}` });
  const list = await as.get('/agent/conversations?status=all&channel=messaging');
  assertMatchesSchema(t, conversationListResponse, list.body);
  t.like(list.body.conversations[0], { contact: { name: 'Grace', phone: `+${connected.customer}` } });
});

test('two copies of a delivery arriving at once are counted as one message and one duplicate', async (t) => {
  const { connected, conversation } = await withAgent();
  const totals = (answers: Array<{ status: number; body: string }>) => {
    for (const answer of answers) t.is(answer.status, 200);
    const received = answers.map((answer) => JSON.parse(answer.body).received);
    return {
      messages: received.reduce((sum, r) => sum + r.messages, 0),
      duplicates: received.reduce((sum, r) => sum + r.duplicates, 0),
    };
  };
  // A new customer (no conversation yet), then into the conversation under way, a few times each.
  const first = connected.text('How many days do I have to return an item?');
  t.deepEqual(totals(await Promise.all([connected.send(first), connected.send(first)])), { messages: 1, duplicates: 1 });
  await conversation();
  for (let round = 0; round < 3; round++) {
    const copy = connected.text(`Question ${round}: how long does standard delivery take?`);
    t.deepEqual(
      totals(await Promise.all([connected.send(copy), connected.send(copy), connected.send(copy)])),
      { messages: 1, duplicates: 2 },
      `round ${round}`,
    );
  }
  const body = await conversation((read) => read.messages.filter((m: any) => m.author === 'visitor').length >= 4);
  t.is(body.messages.filter((m: any) => m.author === 'visitor').length, 4, 'each message once in the transcript');
});
