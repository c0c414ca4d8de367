import test from 'ava';
import { createTranscript } from '#conversations/transcript.js';
import { eventually } from '#testing/eventually.js';
import { startFakeMessagingPlatform, statusUpdate, type FakeMessagingPlatform } from '#testing/fake-messaging-platform.js';
import { startIngestionStack, type IngestionStack } from '#testing/ingestion.js';
import { channelStateOf, messagingTenant } from '#testing/messaging-tenant.js';

/*
 * What one messaging connection can do to another's, and what a refused token still costs: the
 * real API and worker, and the fake platform the worker sends to.
 */

let stack: IngestionStack;
let platform: FakeMessagingPlatform;
test.before(async () => {
  platform = await startFakeMessagingPlatform();
  stack = await startIngestionStack({ GRAPH_API_BASE_URL: platform.url });
});
test.after.always(async () => {
  await stack?.close();
  await platform?.close();
});

const channel = () => channelStateOf(stack.api);
const transcript = () => createTranscript(stack.api.redis, stack.api.config.redis.prefix);

/** A tenant with its own connection; its customer's conversation once there is one. */
async function connectedTenant() {
  const connected = await messagingTenant(stack.api, platform);
  return { ...connected, conversationId: () => eventually(connected.conversationId, (id) => id !== undefined) };
}

/** The AI messages of the conversation once `count` of them have a delivery recorded. */
async function deliveredAiMessages(conversationId: string, count: number) {
  return eventually(
    async () => {
      const ai = (await transcript().read(conversationId)).filter((message) => message.author === 'ai');
      const deliveries = await Promise.all(ai.map((message) => channel().deliveryOf(conversationId, message.id)));
      return deliveries.filter((delivery) => delivery !== undefined);
    },
    (deliveries) => deliveries.length >= count,
    { timeoutMs: 30_000 },
  );
}

test("a status signed on another tenant's connection does not touch this tenant's message", async (t) => {
  const victim = await connectedTenant();
  await victim.send(victim.text('Hello, is anyone there?'));
  const answer = await eventually(
    async () => victim.received()[0],
    (sent) => sent !== undefined,
    { timeoutMs: 30_000 },
  );
  const conversationId = (await victim.conversationId())!;
  t.is((await deliveredAiMessages(conversationId, 1))[0]!.status, 'sent');

  // Another tenant signs, with its own app secret and for its own number, a failure of the victim's message.
  const attacker = await connectedTenant();
  const forged = await attacker.send(
    statusUpdate({
      phoneNumberId: attacker.phoneNumberId,
      messageId: answer!.messageId,
      status: 'failed',
      recipientId: victim.customer,
      error: { code: 131047, title: 'Injected', details: 'Call +1 555 0100 to fix your account' },
    }),
  );
  t.is(forged.status, 200);
  t.is(await channel().problemOf(conversationId), undefined, 'no delivery problem planted in the victim inbox');
  t.is((await deliveredAiMessages(conversationId, 1))[0]!.status, 'sent');

  // The victim's own connection still moves its message on.
  await victim.send(
    statusUpdate({
      phoneNumberId: victim.phoneNumberId,
      messageId: answer!.messageId,
      status: 'read',
      recipientId: victim.customer,
    }),
  );
  t.is((await deliveredAiMessages(conversationId, 1))[0]!.status, 'read');
});

test('once the platform refused the token, later messages are not sent with it, and say why', async (t) => {
  const connected = await connectedTenant();
  platform.revokeToken(connected.accessToken);
  await connected.send(connected.text('Hello?'));
  const conversationId = (await connected.conversationId())!;
  await deliveredAiMessages(conversationId, 1);
  t.is(connected.calls().length, 1, 'the first message found the token refused');
  t.like(await channel().problemOf(conversationId), { code: 'token_invalid' });

  await connected.send(connected.text('Is anyone there?'));
  const [, second] = await deliveredAiMessages(conversationId, 2);
  t.like(second, { status: 'failed', problem: { code: 'token_invalid' } });
  t.regex(second!.problem!.message, /token/);
  t.is(connected.calls().length, 1, 'the platform was not called again with the refused token');
  t.deepEqual(connected.received(), []);
});
