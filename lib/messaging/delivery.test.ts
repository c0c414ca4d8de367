import { randomUUID } from 'node:crypto';
import test from 'ava';
import type { ChatMessage } from '#conversations/chat-message.js';
import { createEventPublisher } from '#conversations/events.js';
import { createTranscript, type Transcript } from '#conversations/transcript.js';
import { createChannelState } from './channel-state.js';
import { createGraphClient } from './graph-client.js';
import { eventually } from '#testing/eventually.js';
import {
  fakeAccessToken,
  graphErrors,
  startFakeMessagingPlatform,
  type FakeMessagingPlatform,
} from '#testing/fake-messaging-platform.js';
import { useTestRedis } from '#testing/redis.js';
import type { ConversationRef } from '#workflows/conversations/types.js';
import { createDelivery, DeliveryClaimError, type DeliveryConnection, type DeliveryDeps } from './delivery.js';

// Delivery on the real Redis (transcript, channel state) and the real Graph client, against the
// fake platform over HTTP; only the connection store is stubbed at its boundary.

const testRedis = useTestRedis(test);
let platform: FakeMessagingPlatform;
test.before(async () => {
  platform = await startFakeMessagingPlatform();
});
test.after.always(() => platform?.close());

const connection: DeliveryConnection = {
  id: 'connection-1',
  phoneNumberId: '109283746501928',
  apiVersion: 'v23.0',
  status: 'active',
};

/** A conversation of its own customer, the window open; `run()` is one run of its delivery. */
async function setUp(options: { graphTimeoutMs?: number } = {}) {
  const redis = testRedis.redis();
  const transcript = createTranscript(redis, testRedis.prefix);
  const channel = createChannelState(redis, testRedis.prefix, createEventPublisher(redis, testRedis.prefix));
  const customer = String(15550000000 + Math.floor(Math.random() * 9_999_999));
  const ref: ConversationRef = {
    conversationId: randomUUID(),
    tenantId: 'tenant-1',
    operatorId: 'operator-1',
    knowledgeBaseId: 'kb-1',
    channel: 'messaging',
    locale: 'en',
    messaging: { connectionId: connection.id, customer },
  };
  await channel.noteCustomerMessage(ref.conversationId, new Date());
  /** How many transcript messages delivery has read, in all its runs. */
  const reads = { messages: 0 };
  const counting: Pick<Transcript, 'readFrom'> = {
    async readFrom(conversationId, position) {
      const entries = await transcript.readFrom(conversationId, position);
      reads.messages += entries.length;
      return entries;
    },
  };
  // The transcript a run reads before this change, counted the same way, so the old code fails the count too.
  Object.assign(counting, {
    async read(conversationId: string) {
      const messages = await transcript.read(conversationId);
      reads.messages += messages.length;
      return messages;
    },
  });
  const deps: DeliveryDeps = {
    transcript: counting,
    channel,
    connections: {
      get: async (id) => (id === connection.id ? connection : undefined),
      credentialsOf: async () => ({ accessToken: fakeAccessToken }),
      markTokenInvalid: async () => undefined,
    },
    graph: createGraphClient({ baseUrl: platform.url, timeoutMs: options.graphTimeoutMs ?? 10_000 }),
  };
  const delivery = createDelivery(deps);
  /** One run: no send starts `budgetMs` from now or later, and its claim lasts a minute. */
  const run = ({ budgetMs = 45_000, signal = new AbortController().signal } = {}) =>
    delivery.run(ref, { deadline: Date.now() + budgetMs, signal, claimMs: 60_000 });
  const say = async (text: string, author: ChatMessage['author'] = 'agent') => {
    const message: ChatMessage = {
      id: randomUUID(),
      author,
      text,
      createdAt: new Date().toISOString(),
      aiGenerated: false,
      ...(author === 'agent' ? { agent: { name: 'Ada' } } : {}),
    };
    await transcript.append(ref.conversationId, message);
    return message;
  };
  /** The texts the customer's inbox holds, in order. */
  const inbox = () =>
    platform.sent.filter((sent) => sent.body.to === customer).map((sent) => (sent.body.text as { body: string }).body);
  return { ref, customer, channel, run, say, inbox, reads };
}

/** An agent reply of two parts: the first 4,096 characters of `a`, then `b`. */
const twoParts = `${'a'.repeat(4000)} ${'b'.repeat(200)}`;

test('throttled on the second part: after the retry the customer has each part exactly once', async (t) => {
  const { ref, customer, channel, run, say, inbox } = await setUp();
  const reply = await say(twoParts);
  platform.failNext(1, graphErrors.throughput, { to: customer, after: 1 });

  await t.throwsAsync(run(), { message: /130429|throughput|Rate limit/i });
  t.is(inbox().length, 1, 'the first part went out');
  t.is((await channel.deliveryOf(ref.conversationId, reply.id)) ?? null, null, 'the message is not sent yet');

  t.like(await run(), { sent: 1, failed: 0, more: false });
  const parts = inbox();
  t.is(parts.length, 2);
  t.true(parts[0]!.startsWith('*Ada:* aaa'));
  t.regex(parts[1]!, /^b+$/);
  const delivery = await channel.deliveryOf(ref.conversationId, reply.id);
  t.like(delivery, { status: 'sent' });
  t.deepEqual(
    delivery!.platformIds,
    platform.sent.filter((sent) => sent.body.to === customer).map((sent) => sent.messageId),
  );
  t.like(await run(), { sent: 0, failed: 0 }, 'a later run sends nothing');
  t.is(inbox().length, 2);
});

test('taken by the platform but the answer lost: the retry carries the same key, the customer gets it once', async (t) => {
  const { ref, customer, channel, run, say, inbox } = await setUp({ graphTimeoutMs: 2_000 });
  const reply = await say('Your parcel left the warehouse this morning.');
  platform.loseAnswers(1, { to: customer });

  await t.throwsAsync(run(), { message: /no answer within 2000 ms/ });
  t.is(inbox().length, 1, 'the platform took it');
  t.like(await run(), { sent: 1 });
  t.is(inbox().length, 1, 'and did not deliver it again');
  t.deepEqual((await channel.deliveryOf(ref.conversationId, reply.id))!.platformIds, [
    platform.sent.find((sent) => sent.body.to === customer)!.messageId,
  ]);
});

test('two runs at once for one conversation never both send a part', async (t) => {
  const { customer, run, say, inbox } = await setUp();
  await say(twoParts);
  await say('And one more thing.');
  const release = platform.holdNext({ to: customer });
  const first = run();
  await eventually(
    async () => platform.held({ to: customer }),
    (held) => held === 1,
  );
  const second = run();
  // The second run is done (refused, or finding nothing to send) while the first still waits on the platform.
  const secondResult = await second.then(
    (result) => result,
    (error: Error) => error,
  );
  release();
  t.like(await first, { sent: 2 });
  t.true(secondResult instanceof DeliveryClaimError, 'the second run finds the conversation being delivered');
  t.like(secondResult, { code: 'delivery_busy' });
  t.like(await run(), { sent: 0 });
  t.is(inbox().length, 3, 'two parts and one message, each once');
});

test('a run stops between parts at its deadline; the next one sends the rest', async (t) => {
  // A deadline passed before it starts: each run sends one part, then stops with more to send.
  const { run, say, inbox } = await setUp();
  await say(twoParts);
  await say('Last.');
  t.like(await run({ budgetMs: 0 }), { sent: 0, more: true });
  t.is(inbox().length, 1);
  t.like(await run({ budgetMs: 0 }), { sent: 1, more: true });
  t.like(await run({ budgetMs: 0 }), { sent: 1, more: false });
  t.deepEqual(inbox().slice(1), [`${'b'.repeat(200)}`, '*Ada:* Last.']);
});

test('a cancelled run sends no further part; the next run sends only what is missing', async (t) => {
  const { customer, run, say, inbox } = await setUp();
  await say(twoParts);
  const release = platform.holdNext({ to: customer });
  const cancel = new AbortController();
  const cancelled = run({ signal: cancel.signal });
  await eventually(
    async () => platform.held({ to: customer }),
    (held) => held === 1,
  );
  cancel.abort();
  release();
  // The run ends with the signal's reason, as fetch and the timers of Node end: a DOMException named AbortError.
  await t.throwsAsync(cancelled, { any: true, name: 'AbortError' });
  t.is(inbox().length, 1, 'the part in flight finished; the next was not started');
  t.like(await run(), { sent: 1 });
  t.is(inbox().length, 2);
});

test('a run reads only the transcript after its delivery cursor, and keeps the order', async (t) => {
  const { run, say, inbox, reads } = await setUp();
  const texts = Array.from({ length: 6 }, (_, index) => `Message ${index + 1}`);
  for (const text of texts.slice(0, 4)) {
    await say('A question?', 'visitor');
    await say(text, 'ai');
  }
  t.like(await run(), { sent: 4 });
  t.is(reads.messages, 8);

  await say('Another question?', 'visitor');
  await say(texts[4]!, 'ai');
  await say(texts[5]!, 'system');
  reads.messages = 0;
  t.like(await run(), { sent: 2 });
  t.is(reads.messages, 3, 'only what came after the delivered ones');
  reads.messages = 0;
  t.like(await run(), { sent: 0 });
  t.is(reads.messages, 0);
  t.deepEqual(inbox(), texts);
});

test("131047 while our clock reads the window open: the platform's word closes it until the customer writes again", async (t) => {
  const { ref, customer, channel, run, say, inbox } = await setUp();
  platform.failNext(1, graphErrors.outsideWindow, { to: customer });
  const first = await say('Hello, Ada here.');
  const second = await say('Are you still there?');
  const result = await run();
  t.like(result, { sent: 0, failed: 2, windowClosed: true });
  t.like(await channel.deliveryOf(ref.conversationId, first.id), { status: 'failed', problem: { code: 'window_closed' } });
  const refusedHere = await channel.deliveryOf(ref.conversationId, second.id);
  t.like(refusedHere, { status: 'failed', problem: { code: 'window_closed' } });
  t.regex(refusedHere!.problem!.message, /window has closed/, 'refused by our record, without asking the platform');
  t.true((await channel.windowOpenUntil(ref.conversationId))!.getTime() <= Date.now());
  t.deepEqual(inbox(), []);

  // The customer writes again: the window is open for 24 hours and the next message goes out.
  await channel.noteCustomerMessage(ref.conversationId, new Date(Date.now() + 1));
  t.true((await channel.windowOpenUntil(ref.conversationId))!.getTime() > Date.now() + 23 * 3600 * 1000);
  await say('Good: your return is approved.');
  t.like(await run(), { sent: 1, failed: 0 });
  t.deepEqual(inbox(), ['*Ada:* Good: your return is approved.']);
});

test("a refusal older than the customer's latest message changes nothing: it was about an older window", async (t) => {
  const { ref, channel } = await setUp();
  const until = await channel.windowOpenUntil(ref.conversationId);
  await channel.closeWindow(ref.conversationId, new Date(Date.now() - 60_000));
  t.deepEqual(await channel.windowOpenUntil(ref.conversationId), until);
});
