import { randomBytes, randomUUID } from 'node:crypto';
import test from 'ava';
import { createTranscript } from '#conversations/transcript.js';
import { chattingTenant } from '#testing/chat.js';
import { eventually } from '#testing/eventually.js';
import {
  deliver,
  inboundText,
  sampleBusiness,
  startFakeMessagingPlatform,
  statusUpdate,
  type FakeMessagingPlatform,
} from '#testing/fake-messaging-platform.js';
import { startIngestionStack, type IngestionStack } from '#testing/ingestion.js';
import { createChannelState } from './channel-state.js';

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

const channel = () => createChannelState(stack.api.redis, stack.api.config.redis.prefix);
const transcript = () => createTranscript(stack.api.redis, stack.api.config.redis.prefix);
const digits = (n: number) =>
  Array.from(randomBytes(n), (byte) => byte % 10)
    .join('')
    .replace(/^0/, '1');

/** A tenant with its own connection (number, token, app secret) and one customer writing to it. */
async function connectedTenant() {
  const tenant = await chattingTenant(stack.api);
  const admin = (
    await stack.api.admin('POST', `/admin/tenants/${tenant.tenant.id}/users`, {
      name: 'Ada',
      email: `ada-${randomUUID()}@shop.test`,
      role: 'admin',
    })
  ).body;
  const headers = { authorization: `Bearer ${admin.token}` };
  const accessToken = `EAA${randomBytes(24).toString('hex')}`;
  const appSecret = randomBytes(16).toString('hex');
  const phoneNumberId = digits(15);
  platform.acceptToken(accessToken);
  const created = await stack.api.request('POST', '/integrations/credentials', {
    headers,
    body: {
      type: 'messaging_api',
      name: 'Shop on WhatsApp',
      data: {
        accessToken,
        businessAccountId: sampleBusiness.businessAccountId,
        phoneNumberId,
        phoneNumber: `+1555${digits(7)}`,
        apiVersion: 'v23.0',
        appSecret,
      },
    },
  });
  if (created.status !== 201) throw new Error(`credential: ${created.status} ${JSON.stringify(created.body)}`);
  const connectionId = created.body.connectionId as string;
  const info = (await stack.api.request('GET', `/integrations/app-connections/${connectionId}/webhook-info`, { headers })).body;
  const customer = digits(11);
  return {
    connectionId,
    phoneNumberId,
    accessToken,
    customer,
    send: (body: object) => deliver(`${stack.api.url}/webhooks/messaging_api/${info.webhookPath}`, body, { appSecret }),
    text: (text: string) => inboundText({ text, phoneNumberId, from: customer, name: 'Grace' }),
    received: () => platform.sent.filter((sent) => sent.phoneNumberId === phoneNumberId && sent.body.to === customer),
    /** Every call the worker made to the platform's send endpoint for this number, refused ones too. */
    calls: () => platform.requests.filter((request) => request.path.includes(`/${phoneNumberId}/messages`)),
    conversationId: () =>
      eventually(
        () => channel().conversationOf(connectionId, customer),
        (id) => id !== undefined,
      ),
  };
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
