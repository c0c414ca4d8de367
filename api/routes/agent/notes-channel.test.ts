import { randomUUID } from 'node:crypto';
import test from 'ava';
import { createUser } from '#testing/api.js';
import { eventually } from '#testing/eventually.js';
import { startFakeEventReceiver, type FakeEventReceiver } from '#testing/fake-event-receiver.js';
import { startFakeMessagingPlatform, type FakeMessagingPlatform } from '#testing/fake-messaging-platform.js';
import { startIngestionStack, type IngestionStack } from '#testing/ingestion.js';
import { messagingTenant } from '#testing/messaging-tenant.js';
import { tearDown } from '#testing/teardown.js';

/*
 * A private note on a messaging conversation, against the real stack with the fake platform and a
 * tenant's event endpoint: the customer's channel and the tenant's `message.created` events carry
 * every message around it, and never the note.
 */

let stack: IngestionStack;
let platform: FakeMessagingPlatform;
let receiver: FakeEventReceiver;
test.before(async () => {
  platform = await startFakeMessagingPlatform();
  receiver = await startFakeEventReceiver();
  stack = await startIngestionStack({ GRAPH_API_BASE_URL: platform.url, EVENT_DELIVERY_MAX_INTERVAL_SECONDS: '1' });
});
test.after.always(() =>
  tearDown({ ...stack?.closingSteps, platform: async () => platform?.close(), receiver: async () => receiver?.close() }),
);

test('a note never reaches the messaging platform nor the outbound message.created events', async (t) => {
  const api = stack.api;
  const c = await messagingTenant(api, platform);
  const tenantId = c.tenant.tenant.id as string;
  const admin = await createUser(api, tenantId, 'admin', 'Alex');
  const agent = await createUser(api, tenantId, 'agent', 'Ada');
  const endpoint = await api.request('POST', '/integrations/event-endpoints', {
    headers: admin.headers,
    body: { url: `${receiver.url}/events`, eventTypes: ['message.created'] },
  });
  t.is(endpoint.status, 201);

  await c.send(c.text('Where is my order?'));
  const conversationId = (await eventually(
    () => c.conversationId(),
    (id) => id !== undefined,
    { timeoutMs: 30_000 },
  ))!;
  await eventually(
    async () => c.received(),
    (sent) => sent.length >= 1,
    { timeoutMs: 30_000 },
  );
  const path = `/agent/conversations/${conversationId}`;

  const secret = `NOTE-${randomUUID()}`;
  const note = await api.request('POST', `${path}/notes`, {
    headers: agent.headers,
    body: { text: `${secret}: refund approved by the manager, @Alex` },
  });
  t.is(note.status, 201);
  t.is(note.body.mentions[0].name, 'Alex');

  // What follows the note goes out: the agent joins and replies.
  t.is((await api.request('POST', `${path}/take-over`, { headers: agent.headers })).status, 200);
  const messageId = randomUUID();
  const reply = await api.request('POST', `${path}/messages`, {
    headers: agent.headers,
    body: { text: 'Ada here, one moment.', messageId },
  });
  t.is(reply.status, 202);
  await eventually(
    async () => c.received(),
    (sent) => sent.some((message) => JSON.stringify(message.body).includes('Ada here, one moment.')),
    { timeoutMs: 30_000 },
  );
  const events = await eventually(
    async () => receiver.delivered(),
    (delivered) => delivered.some((event) => event.data.message?.id === messageId),
    { timeoutMs: 60_000 },
  );

  t.true(c.received().length >= 3, 'the answer, the notice that Ada joined, her reply');
  t.false(JSON.stringify(platform.sent).includes(secret), 'no send to the platform carries the note');
  t.true(events.some((event) => event.data.message?.author === 'visitor'));
  t.false(JSON.stringify(receiver.received).includes(secret), 'no outbound event carries the note');
  t.false(
    events.some((event) => event.data.message?.id === note.body.id),
    'no message.created for the note',
  );

  // Agents see it, private, and with no delivery: it was never meant to go out.
  const read = await api.request('GET', path, { headers: agent.headers });
  const shown = read.body.messages.find((message: { id: string }) => message.id === note.body.id);
  t.like(shown, { private: true, author: 'agent', agent: { name: 'Ada' } });
  t.false('delivery' in shown);
});
