import { randomBytes, randomUUID } from 'node:crypto';
import test from 'ava';
import { createTranscript } from '#conversations/transcript.js';
import { createConversationRecords } from '#conversations/records.js';
import { createAnswerBudget } from '#conversations/answer-budget.js';
import { createConversationClient } from '#conversations/workflow-client.js';
import { testActionWait } from '#testing/chat.js';
import { eventually } from '#testing/eventually.js';
import {
  deliver,
  graphErrors,
  inboundOf,
  inboundText,
  startFakeMessagingPlatform,
  statusUpdate,
  type FakeMessagingPlatform,
} from '#testing/fake-messaging-platform.js';
import { useStackWithTemporal } from '#testing/ingestion.js';
import { channelStateOf, messagingTenant, randomDigits as digits } from '#testing/messaging-tenant.js';
import { shopItems } from '#testing/shop-content.js';
import { validateOutboundPayload } from './outbound-message.js';

/*
 * The messaging channel end to end: the real API, worker, Temporal, Weaviate and Redis, and a local
 * fake of the messaging platform that the worker sends to and that signs deliveries to our webhook.
 */

let platform: FakeMessagingPlatform;
const bed = useStackWithTemporal(test, async () => {
  platform = await startFakeMessagingPlatform();
  return { GRAPH_API_BASE_URL: platform.url, CONVERSATION_IDLE_MINUTES: '30' };
});
test.after.always(() => platform?.close());

const agents = () => createConversationClient(bed.temporal.client, bed.stack.api.config.temporal.taskQueue, testActionWait);
const channel = () => channelStateOf(bed.stack.api);
const transcript = () => createTranscript(bed.stack.api.redis, bed.stack.api.config.redis.prefix);

/** A tenant with content, an admin, and a messaging connection of its own number and token. */
const connectedTenant = () => messagingTenant(bed.stack.api, platform, [shopItems.returns, shopItems.shipping]);

type Connected = Awaited<ReturnType<typeof connectedTenant>>;

/** Waits until the platform has received `count` messages for the customer; returns them. */
async function replies(connected: Connected, count: number) {
  const received = await eventually(
    async () => connected.received(),
    (sent) => sent.length >= count,
    { timeoutMs: 30_000 },
  );
  return received;
}

test('the verification handshake answers the challenge only for the right token and mode', async (t) => {
  const connected = await connectedTenant();
  const url = (query: string) => `${connected.webhookUrl}?${query}`;
  const right = await fetch(url(`hub.mode=subscribe&hub.verify_token=${connected.verifyToken}&hub.challenge=1158201444`));
  t.is(right.status, 200);
  t.regex(right.headers.get('content-type') ?? '', /^text\/plain/);
  t.is(await right.text(), '1158201444');

  const wrongToken = await fetch(url(`hub.mode=subscribe&hub.verify_token=${connected.verifyToken}x&hub.challenge=1`));
  t.is(wrongToken.status, 403);
  t.is((await wrongToken.json()).error.code, 'forbidden');
  t.is((await fetch(url(`hub.mode=unsubscribe&hub.verify_token=${connected.verifyToken}&hub.challenge=1`))).status, 403);
  t.is((await fetch(url(`hub.challenge=1`))).status, 403);
  const unknown = await fetch(
    `${bed.stack.api.url}/webhooks/messaging_api/${randomBytes(24).toString('base64url')}?hub.mode=subscribe`,
  );
  t.is(unknown.status, 404);
  t.is((await unknown.json()).error.code, 'not_found');
});

test('deliveries must carry the signature of the exact bytes with the app secret', async (t) => {
  const connected = await connectedTenant();
  const body = JSON.stringify(connected.text('Hallo, wie lange dauert der Versand? ✓'));
  t.is((await deliver(connected.webhookUrl, body, { signature: null })).status, 401, 'unsigned');
  t.is((await deliver(connected.webhookUrl, body, { appSecret: 'another secret' })).status, 401, 'wrong secret');
  const signedOriginal = (await import('./webhook-signature.js')).signBody(Buffer.from(body), connected.appSecret);
  const altered = body.replace('Versand', 'Versanf');
  t.is((await deliver(connected.webhookUrl, altered, { signature: signedOriginal })).status, 401, 'one byte changed');
  t.is((await deliver(connected.webhookUrl, body, { signature: 'sha256=zz' })).status, 401, 'not hex');
  t.deepEqual(connected.received(), [], 'nothing refused reached a conversation');

  const accepted = await deliver(connected.webhookUrl, body, { signature: signedOriginal });
  t.is(accepted.status, 200);
  t.like(JSON.parse(accepted.body), { received: { messages: 1, duplicates: 0 } });
});

test('a malformed delivery is 400 and a well-signed delivery of other events is 200', async (t) => {
  const connected = await connectedTenant();
  const garbage = await connected.send('{"object": "whatsapp_business_account", "entry": ');
  t.is(garbage.status, 400);
  t.is(JSON.parse(garbage.body).error.code, 'invalid_payload');
  t.is((await connected.send({ hello: 'world' })).status, 400);
  const otherNumber = await connected.send(inboundText({ text: 'Hi', phoneNumberId: digits(15), from: connected.customer }));
  t.like(JSON.parse(otherNumber.body), { received: { messages: 0, ignored: 1 } });
  t.like(JSON.parse((await connected.send(inboundOf('webhook-errors'))).body), { received: { messages: 0 } });
});

test('a customer question gets the AI answer on the channel, labelled as AI, in its format; a duplicate does nothing', async (t) => {
  const connected = await connectedTenant();
  const question = connected.text('How many days do I have to return an item?');
  const first = await connected.send(question);
  t.like(JSON.parse(first.body), { received: { messages: 1 } });
  const again = await connected.send(question);
  t.like(JSON.parse(again.body), { received: { messages: 0, duplicates: 1 } });

  const [answer] = await replies(connected, 1);
  t.is(answer!.apiVersion, 'v23.0');
  t.like(answer!.body, { messaging_product: 'whatsapp', to: connected.customer, type: 'text' });
  const text = (answer!.body.text as { body: string }).body;
  t.regex(text, /30 days/);
  t.regex(text, /_AI-generated answer_$/, 'the AI label closes every AI message');
  t.notRegex(text, /\*\*|^#/m, 'no markdown bold or headers');
  t.deepEqual(validateOutboundPayload(answer!.body), []);

  // A later question is answered after the duplicate would have been: still one answer per question.
  await connected.send(connected.text('How long does standard delivery take?'));
  const both = await replies(connected, 2);
  t.regex((both[1]!.body.text as { body: string }).body, /3 to 5 business days/);
  t.is(connected.received().length, 2);

  const conversationId = await connected.conversationId();
  const record = await createConversationRecords(bed.stack.api.redis, bed.stack.api.config.redis.prefix).get(conversationId!);
  t.like(record, { channel: 'messaging', contact: { name: 'Grace' }, messaging: { connectionId: connected.connectionId } });
});

test('every inbound type reaches the conversation as text or a placeholder', async (t) => {
  const connected = await connectedTenant();
  const samples = [
    ['inbound-image', /^\[Image\]/],
    ['inbound-document', /^\[Document/],
    ['inbound-audio', /^\[(Voice message|Audio)\]/],
    ['inbound-sticker', /^\[Sticker\]/],
    ['inbound-location', /^\[Location\] -?\d+(\.\d+)?, -?\d+(\.\d+)?/],
    ['inbound-unsupported', /^\[Unsupported message\]/],
    ['inbound-button-reply', /\S/],
    ['inbound-list-reply', /\S/],
    ['inbound-template-button', /\S/],
  ] as const;
  for (const [sample] of samples) {
    const response = await connected.send(
      inboundOf(sample, { phoneNumberId: connected.phoneNumberId, from: connected.customer }),
    );
    t.like(JSON.parse(response.body), { received: { messages: 1 } }, sample);
  }
  const reaction = await connected.send(
    inboundOf('inbound-reaction', { phoneNumberId: connected.phoneNumberId, from: connected.customer }),
  );
  t.like(JSON.parse(reaction.body), { received: { messages: 0 } }, 'a reaction is not a message to answer');

  const conversationId = (await connected.conversationId())!;
  const visitorTexts = await eventually(
    async () => (await transcript().read(conversationId)).filter((m) => m.author === 'visitor').map((m) => m.text),
    (texts) => texts.length >= samples.length,
    { timeoutMs: 60_000 },
  );
  t.is(visitorTexts.length, samples.length);
  samples.forEach(([sample, pattern], index) => t.regex(visitorTexts[index]!, pattern, sample));
});

test('statuses move a sent message forward, never back; a failed one is recorded with the platform error', async (t) => {
  const connected = await connectedTenant();
  await connected.send(connected.text('How many days do I have to return an item?'));
  const [answer] = await replies(connected, 1);
  const conversationId = (await connected.conversationId())!;
  const messageId = `${answer!.messageId}`;
  const status = (value: 'sent' | 'delivered' | 'read' | 'failed') =>
    connected.send(
      statusUpdate({ phoneNumberId: connected.phoneNumberId, messageId, status: value, recipientId: connected.customer }),
    );
  const deliveryStatus = async () => {
    const outgoing = (await transcript().read(conversationId)).find((m) => m.author === 'ai')!;
    return (await channel().deliveryOf(conversationId, outgoing.id))?.status;
  };

  t.is(await eventually(deliveryStatus, (value) => value === 'sent'), 'sent', 'recorded once the platform took it');
  t.like(JSON.parse((await status('read')).body), { received: { statuses: 1 } });
  t.is(await deliveryStatus(), 'read');
  await status('delivered');
  await status('delivered');
  t.is(await deliveryStatus(), 'read', 'a late delivered does not undo read');

  await connected.send(connected.text('How long does standard delivery take?'));
  const [, second] = await replies(connected, 2);
  await eventually(
    async () => (await transcript().read(conversationId)).filter((m) => m.author === 'ai').length,
    (count) => count === 2,
  );
  await eventually(
    async () => {
      const outgoing = (await transcript().read(conversationId)).filter((m) => m.author === 'ai')[1]!;
      return (await channel().deliveryOf(conversationId, outgoing.id))?.status;
    },
    (value) => value === 'sent',
  );
  await connected.send(
    statusUpdate({
      phoneNumberId: connected.phoneNumberId,
      messageId: second!.messageId,
      status: 'failed',
      recipientId: connected.customer,
    }),
  );
  const problem = await channel().problemOf(conversationId);
  t.like(problem, { code: 'window_closed' }, 'the same code as a send refused at once');
});

test('an answer that found nothing offers a person as a valid reply button; tapping it hands the customer over', async (t) => {
  const connected = await connectedTenant();
  await connected.send(connected.text('Do you sell submarines with a warp drive?'));
  const [offer] = await replies(connected, 1);
  t.is(offer!.body.type, 'interactive');
  t.deepEqual(validateOutboundPayload(offer!.body), []);
  const interactive = offer!.body.interactive as any;
  t.is(interactive.type, 'button');
  t.true(interactive.action.buttons.length <= 3);
  for (const button of interactive.action.buttons) t.true([...button.reply.title].length <= 20);
  t.regex(interactive.body.text, /_AI-generated answer_/);

  const tap = inboundOf('inbound-button-reply', { phoneNumberId: connected.phoneNumberId, from: connected.customer });
  tap.entry[0].changes[0].value.messages[0].interactive.button_reply = interactive.action.buttons[0].reply;
  await connected.send(tap);
  const conversationId = (await connected.conversationId())!;
  const record = await eventually(
    () => createConversationRecords(bed.stack.api.redis, bed.stack.api.config.redis.prefix).get(conversationId),
    (value) => value?.status === 'waiting_for_agent',
  );
  t.is(record?.status, 'waiting_for_agent');
});

test("past the operator's answers for the day, a customer is handed to a person with a polite reply", async (t) => {
  const connected = await connectedTenant();
  // Another process (the API, another worker) spent the operator's whole day.
  const budget = createAnswerBudget(bed.stack.api.redis, {
    prefix: bed.stack.api.config.redis.prefix,
    perDay: bed.stack.api.config.conversations.operatorAnswersPerDay,
  });
  const operatorId = connected.tenant.operator.id as string;
  for (let spent = 0; spent < bed.stack.api.config.conversations.operatorAnswersPerDay; spent += 500) {
    await Promise.all(Array.from({ length: 500 }, () => budget.spend(operatorId)));
  }

  await connected.send(connected.text('How many days do I have to return an item?'));
  const [reply] = await replies(connected, 1);
  const text = (reply!.body.text as { body: string }).body;
  t.regex(text, /passing you to a person/);
  t.notRegex(text, /30 days/, 'no AI answer');
  const conversationId = (await connected.conversationId())!;
  const record = await eventually(
    () => createConversationRecords(bed.stack.api.redis, bed.stack.api.config.redis.prefix).get(conversationId),
    (value) => value?.status === 'waiting_for_agent',
  );
  t.is(record?.status, 'waiting_for_agent');
});

test('throttling and server errors are retried until the answer goes out', async (t) => {
  const connected = await connectedTenant();
  platform.failNext(2, graphErrors.throughput);
  await connected.send(connected.text('How many days do I have to return an item?'));
  const [answer] = await replies(connected, 1);
  t.regex((answer!.body.text as { body: string }).body, /30 days/);
  t.true(platform.requests.filter((request) => request.code === 130429).length >= 2);
});

test('throttled on the second part of a long agent reply: the customer gets each part exactly once', async (t) => {
  const connected = await connectedTenant();
  await connected.send(connected.text('How many days do I have to return an item?'));
  await replies(connected, 1);
  const conversationId = (await connected.conversationId())!;
  const record = await createConversationRecords(bed.stack.api.redis, bed.stack.api.config.redis.prefix).get(conversationId);
  const agent = { agentId: 'agent-1', name: 'Ada' };
  await agents().takeOver(record!, agent);
  const before = connected.received().length;

  platform.failNext(1, graphErrors.throughput, { to: connected.customer, after: 1 });
  const long = `${'a'.repeat(4000)} ${'b'.repeat(300)}`;
  // The update answers once its effect is done, delivery included.
  await agents().agentReply(record!, { agentId: agent.agentId, messageId: randomUUID(), text: long });
  const parts = connected.received().slice(before);
  t.is(parts.length, 2);
  t.regex((parts[0]!.body.text as { body: string }).body, /^\*Ada:\* a+$/);
  t.is((parts[1]!.body.text as { body: string }).body, 'b'.repeat(300));
  t.true(
    connected.calls().some((call) => call.code === 130429),
    'the second part was throttled once',
  );
  const reply = (await transcript().read(conversationId)).find((m) => m.author === 'agent')!;
  t.like(await channel().deliveryOf(conversationId, reply.id), { status: 'sent' });
});

test('a revoked token is recorded on the conversation and the connection; the customer is not retried forever', async (t) => {
  const connected = await connectedTenant();
  platform.revokeToken(connected.accessToken);
  await connected.send(connected.text('How many days do I have to return an item?'));
  const conversationId = await eventually(
    () => connected.conversationId(),
    (id) => id !== undefined,
  );
  const problem = await eventually(
    () => channel().problemOf(conversationId!),
    (value) => value !== undefined,
    { timeoutMs: 30_000 },
  );
  t.like(problem, { code: 'token_invalid' });
  t.deepEqual(connected.received(), []);
});

test('outside the 24-hour window an agent reply is refused before it reaches the platform', async (t) => {
  const connected = await connectedTenant();
  await connected.send(connected.text('How many days do I have to return an item?'));
  await replies(connected, 1);
  const conversationId = (await connected.conversationId())!;
  // The customer last wrote 25 hours ago.
  await bed.stack.api.redis.hSet(`${bed.stack.api.config.redis.prefix}:messaging:conversation:${conversationId}`, {
    lastCustomerMessageAt: String(Date.now() - 25 * 3600 * 1000),
  });
  const record = await createConversationRecords(bed.stack.api.redis, bed.stack.api.config.redis.prefix).get(conversationId);
  const agent = { agentId: 'agent-1', name: 'Ada' };
  await agents().takeOver(record!, agent);
  await agents().agentReply(record!, { agentId: agent.agentId, messageId: randomUUID(), text: 'Hello again!' });
  const problem = await eventually(
    () => channel().problemOf(conversationId),
    (value) => value?.code === 'window_closed',
  );
  t.like(problem, { code: 'window_closed' });
  t.is(connected.received().length, 1, 'only the answer from inside the window went out');
});
