import test from 'ava';
import { createUser } from '#testing/api.js';
import { eventually } from '#testing/eventually.js';
import { startFakeMessagingPlatform, statusUpdate, type FakeMessagingPlatform } from '#testing/fake-messaging-platform.js';
import { startIngestionStack, type IngestionStack } from '#testing/ingestion.js';
import { messagingTenant } from '#testing/messaging-tenant.js';
import { tearDown } from '#testing/teardown.js';
import { agentConversationResponse, conversationListResponse } from '#api/schemas/agent.js';
import { assertMatchesSchema } from '#testing/schema.js';
import { platformErrorOf } from './graph-errors.js';

/*
 * A message the platform would not deliver shows agents the platform's own error number and title
 * beside our code, whether the send was refused at once or a `failed` status said so later.
 */

let stack: IngestionStack;
let platform: FakeMessagingPlatform;
test.before(async () => {
  platform = await startFakeMessagingPlatform();
  stack = await startIngestionStack({ GRAPH_API_BASE_URL: platform.url });
});
test.after.always(() => tearDown({ ...stack?.closingSteps, platform: async () => platform?.close() }));

test("the platform's number and title, without the number the send's message words it with", (t) => {
  t.deepEqual(platformErrorOf(131026, '(#131026) Message Undeliverable.'), {
    platformCode: 131026,
    platformTitle: 'Message Undeliverable.',
  });
  t.deepEqual(platformErrorOf(131026, 'Message undeliverable'), { platformCode: 131026, platformTitle: 'Message undeliverable' });
  t.deepEqual(platformErrorOf(131047, undefined), { platformCode: 131047 });
  t.deepEqual(platformErrorOf(null, 'HTTP 502 without a Graph error body'), {}, 'nothing of the platform without its code');
});

/** A customer who wrote and got the AI's answer, and an agent of the tenant. */
async function answeredCustomer() {
  const api = stack.api;
  const c = await messagingTenant(api, platform);
  const agent = await createUser(api, c.tenant.tenant.id, 'agent', 'Ada');
  await c.send(c.text('Where is my parcel?'));
  const [answer] = await eventually(
    async () => c.received(),
    (sent) => sent.length >= 1,
    { timeoutMs: 30_000 },
  );
  const conversationId = (await c.conversationId())!;
  return { api, c, agent, answer: answer!, conversationId, path: `/agent/conversations/${conversationId}` };
}

test('a failed status carries 131026 and its title to the message, the conversation and the inbox list', async (t) => {
  const { api, c, agent, answer, conversationId, path } = await answeredCustomer();
  await eventually(
    () => api.request('GET', path, { headers: agent.headers }),
    (read) => read.body.messages?.some((message: any) => message.delivery?.status === 'sent'),
  );

  // As the platform reports it: errors[].code, title, message and error_data.details.
  const delivered = await c.send(
    statusUpdate({
      phoneNumberId: c.phoneNumberId,
      messageId: answer.messageId,
      status: 'failed',
      recipientId: c.customer,
      error: { code: 131026, title: 'Message undeliverable', details: 'Message Undeliverable.' },
    }),
  );
  t.is(delivered.status, 200);

  const expected = {
    code: 'recipient_unavailable',
    message: 'Message Undeliverable.',
    platformCode: 131026,
    platformTitle: 'Message undeliverable',
  };
  const read = await eventually(
    () => api.request('GET', path, { headers: agent.headers }),
    (response) => response.body.deliveryProblem?.platformCode === 131026,
  );
  assertMatchesSchema(t, agentConversationResponse, read.body);
  t.like(read.body.deliveryProblem, expected);
  const failed = read.body.messages.find((message: any) => message.delivery?.status === 'failed');
  t.like(failed.delivery.error, expected);

  const list = await api.request('GET', '/agent/conversations?status=all', { headers: agent.headers });
  assertMatchesSchema(t, conversationListResponse, list.body);
  const entry = list.body.conversations.find((conversation: any) => conversation.conversationId === conversationId);
  t.like(entry.deliveryProblem, expected);
});

test('a send refused at once with 131026 shows the same number, its title taken from the refusal', async (t) => {
  const { api, c, agent, path } = await answeredCustomer();
  platform.unavailable(c.customer);
  t.is((await api.request('POST', `${path}/take-over`, { headers: agent.headers })).status, 200);

  const read = await eventually(
    () => api.request('GET', path, { headers: agent.headers }),
    (response) => response.body.deliveryProblem?.code === 'recipient_unavailable',
    { timeoutMs: 30_000 },
  );
  // The send's refusal is `(#131026) Message Undeliverable.`: the number is not repeated in the title.
  t.like(read.body.deliveryProblem, {
    code: 'recipient_unavailable',
    platformCode: 131026,
    platformTitle: 'Message Undeliverable.',
  });
  const failed = read.body.messages.filter((message: any) => message.delivery?.status === 'failed');
  t.true(failed.length >= 1);
  t.like(failed[0].delivery.error, { platformCode: 131026, platformTitle: 'Message Undeliverable.' });
});
