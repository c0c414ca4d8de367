import { randomUUID } from 'node:crypto';
import test from 'ava';
import { createConversationRecords } from '#conversations/records.js';
import { conversationKeys } from '#conversations/redis-keys.js';
import { createTranscript } from '#conversations/transcript.js';
import { createConversationClient } from '#conversations/workflow-client.js';
import type { RedisClient } from '#platform/redis.js';
import { createDayCounters, dayOf } from '#insights/day-counters.js';
import { testActionWait } from '#testing/chat.js';
import { eventually } from '#testing/eventually.js';
import { inboundOf, startFakeMessagingPlatform, type FakeMessagingPlatform } from '#testing/fake-messaging-platform.js';
import { useStackWithTemporal } from '#testing/ingestion.js';
import { channelStateOf, messagingTenant, randomDigits } from '#testing/messaging-tenant.js';
import { shopItems } from '#testing/shop-content.js';
import { conversationWorkflowId } from '#workflows/ids.js';
import { askAtClose, readFeedbackChoice } from './feedback-asks.js';
import { limits, validateOutboundPayload } from './outbound-message.js';

/*
 * The messaging channel's feedback asks end to end: the real API (with the ratings store),
 * worker, Temporal, Weaviate and Redis, and the fake platform, which checks interactive messages
 * as the real one does.
 */

/** What is rated in a conversation: the ratings store's feedback hash, message id → rating. */
async function ratingsOf(redis: RedisClient, prefix: string, conversationId: string): Promise<Record<string, string>> {
  const hash = await redis.hGetAll(conversationKeys(prefix).feedback(conversationId));
  return Object.fromEntries(Object.entries(hash).map(([id, value]) => [id, (JSON.parse(value) as { rating: string }).rating]));
}

let platform: FakeMessagingPlatform;
const bed = useStackWithTemporal(test, async () => {
  platform = await startFakeMessagingPlatform();
  return { GRAPH_API_BASE_URL: platform.url, CONVERSATION_IDLE_MINUTES: '30' };
});
test.after.always(() => platform?.close());

const agent = { agentId: 'agent-1', name: 'Ada' };
const agents = () => createConversationClient(bed.temporal.client, bed.stack.api.config.temporal.taskQueue, testActionWait);
const records = () => createConversationRecords(bed.stack.api.redis, bed.stack.api.config.redis.prefix);
const transcript = () => createTranscript(bed.stack.api.redis, bed.stack.api.config.redis.prefix);
const prefix = () => bed.stack.api.config.redis.prefix;

/** A customer who asked a question the knowledge base answers, and got the answer. */
async function answeredCustomer() {
  const connected = await messagingTenant(bed.stack.api, platform, [shopItems.returns, shopItems.shipping]);
  await connected.send(connected.text('How many days do I have to return an item?'));
  await eventually(
    async () => connected.received(),
    (sent) => sent.length >= 1,
    { timeoutMs: 30_000 },
  );
  const conversationId = (await connected.conversationId())!;
  const record = (await records().get(conversationId))!;
  /** Closes it and waits for its workflow to end: the close, its ask and their delivery are done. */
  const close = async (by: 'idle' | 'agent') => {
    await agents().close(record, by);
    await bed.temporal.client.workflow.getHandle(conversationWorkflowId(record.tenantId, conversationId)).result();
  };
  const interactive = () => connected.received().filter((sent) => sent.body.type === 'interactive');
  /** The customer taps a reply button or list row (`from`: as another customer of the number). */
  const tap = (reply: { id: string; title: string }, kind: 'button' | 'list' = 'button', from = connected.customer) => {
    const delivery = inboundOf(kind === 'button' ? 'inbound-button-reply' : 'inbound-list-reply', {
      phoneNumberId: connected.phoneNumberId,
      from,
    });
    const message = delivery.entry[0].changes[0].value.messages[0];
    if (kind === 'button') message.interactive.button_reply = reply;
    else message.interactive.list_reply = reply;
    return connected.send(delivery);
  };
  return { connected, conversationId, record, close, interactive, tap };
}

test('the ask rule: buttons after a close with no handoff, an answer and nothing rated; the score after an agent closed', (t) => {
  const messaging = { channel: 'messaging' as const };
  const open = { windowOpen: true, rated: false };
  const idle = { closedBy: 'idle' as const, handoffBy: null, answered: true };
  t.is(askAtClose(messaging, idle, open), 'answer_feedback');
  t.is(askAtClose(messaging, idle, { ...open, rated: true }), undefined);
  t.is(askAtClose(messaging, { ...idle, answered: false }, open), undefined);
  t.is(askAtClose(messaging, { ...idle, handoffBy: 'visitor' }, open), undefined);
  t.is(askAtClose(messaging, { ...idle, closedBy: 'agent', handoffBy: 'visitor' }, open), 'satisfaction');
  t.is(askAtClose(messaging, idle, { ...open, windowOpen: false }), undefined);
  t.is(askAtClose({ channel: 'widget' }, idle, open), undefined);
  const id = randomUUID();
  t.deepEqual(readFeedbackChoice(`kbfb.down.${id}`), { kind: 'answer', rating: 'down', conversationId: id });
  t.deepEqual(readFeedbackChoice(`kbcsat.5.${id}`), { kind: 'satisfaction', score: 5, conversationId: id });
  for (const other of ['handoff', `kbcsat.6.${id}`, `kbfb.meh.${id}`, 'kbfb.up.not-a-uuid', `kbfb.up.${id}:messages`])
    t.is(readFeedbackChoice(other), undefined, other);
});

test('an idle close after an answer asks "Was this helpful?" once; a tap rates the last answer, is thanked, and starts nothing', async (t) => {
  const { connected, conversationId, close, interactive, tap } = await answeredCustomer();
  await close('idle');
  const asks = interactive();
  t.is(asks.length, 1, 'one ask');
  const ask = asks[0]!.body as any;
  t.deepEqual(validateOutboundPayload(ask), []);
  t.is(ask.interactive.type, 'button');
  t.is(ask.interactive.body.text, 'Was this helpful?');
  const buttons = ask.interactive.action.buttons.map((button: any) => button.reply);
  t.deepEqual(buttons, [
    { id: `kbfb.up.${conversationId}`, title: 'Yes' },
    { id: `kbfb.down.${conversationId}`, title: 'No' },
  ]);
  t.true(buttons.every((button: { title: string }) => [...button.title].length <= limits.buttonTitle));

  const before = connected.received().length;
  const taken = await tap(buttons[0]);
  t.like(JSON.parse(taken.body), { received: { messages: 1 } });
  const answer = (await transcript().read(conversationId)).filter((m) => m.author === 'ai' && m.outcome === 'answered').at(-1)!;
  t.deepEqual(await ratingsOf(bed.stack.api.redis, prefix(), conversationId), { [answer.id]: 'up' });
  const thanks = connected.received().slice(before);
  t.is(thanks.length, 1, 'only the thanks');
  t.is((thanks[0]!.body.text as { body: string }).body, 'Thank you for your feedback!');
  t.is(await connected.conversationId(), conversationId, 'no new conversation');
  t.like(await records().get(conversationId), { status: 'closed', closedBy: 'idle', outcome: 'resolved' }, 'not reopened');
  t.false((await transcript().read(conversationId)).some((m) => m.author === 'visitor' && m.text === 'Yes'));
  const owner = { tenantId: connected.tenant.tenant.id as string, operatorId: connected.tenant.operator.id as string };
  const day = (await createDayCounters(bed.stack.api.redis, prefix()).read(owner, [dayOf(new Date())])).days[0]!;
  t.deepEqual(day.counts, {
    'started:messaging': 1,
    'answers:messaging:answered': 1,
    'closed:messaging': 1,
    'outcome:messaging:resolved': 1,
    'feedback:messaging:up': 1,
  });
});

test('no ask after a handoff that an idle close ends', async (t) => {
  const { connected, conversationId, close, interactive } = await answeredCustomer();
  await connected.send(connected.text('Can I talk to a human please?'));
  await eventually(
    () => records().get(conversationId),
    (record) => record?.status === 'waiting_for_agent',
  );
  await close('idle');
  t.like(await records().get(conversationId), { outcome: 'handed_off', handoffBy: 'visitor' });
  t.deepEqual(interactive(), []);
  t.false((await transcript().read(conversationId)).some((m) => m.ask));
});

test('after an agent closed it, one list asks for a score 1–5; a tapped row is recorded and thanked', async (t) => {
  const { connected, conversationId, record, close, interactive, tap } = await answeredCustomer();
  await agents().takeOver(record, agent);
  await agents().agentReply(record, { agentId: agent.agentId, messageId: randomUUID(), text: 'Anything else?' });
  await close('agent');
  const asks = interactive();
  t.is(asks.length, 1);
  const ask = asks[0]!.body as any;
  t.deepEqual(validateOutboundPayload(ask), []);
  t.is(ask.interactive.type, 'list');
  const rows = ask.interactive.action.sections[0].rows;
  t.deepEqual(
    rows.map((row: { id: string }) => row.id),
    [1, 2, 3, 4, 5].map((score) => `kbcsat.${score}.${conversationId}`),
  );
  t.true(rows.length <= limits.rows);

  const before = connected.received().length;
  await tap(rows[3], 'list');
  const satisfaction = await bed.stack.api.redis.get(`${prefix()}:conversation:${conversationId}:satisfaction`);
  t.like(JSON.parse(satisfaction ?? 'null'), { score: 4 });
  t.is(connected.received().length, before + 1, 'thanked');
  t.is(await connected.conversationId(), conversationId, 'no new conversation');
});

test("a tap naming another customer's conversation is not recorded: it is that customer's ordinary message", async (t) => {
  const { connected, conversationId, close, interactive } = await answeredCustomer();
  await close('idle');
  const [ask] = interactive();
  const down = (ask!.body as any).interactive.action.buttons[1].reply;

  const stranger = randomDigits(11);
  const delivery = inboundOf('inbound-button-reply', { phoneNumberId: connected.phoneNumberId, from: stranger });
  delivery.entry[0].changes[0].value.messages[0].interactive.button_reply = down;
  await connected.send(delivery);
  t.deepEqual(await ratingsOf(bed.stack.api.redis, prefix(), conversationId), {}, 'not rated');
  const channel = channelStateOf(bed.stack.api, prefix());
  const theirs = await eventually(
    () => channel.conversationOf(connected.connectionId, stranger),
    (id) => id !== undefined,
  );
  t.not(theirs, conversationId);
  const texts = await eventually(
    async () => (await transcript().read(theirs!)).filter((m) => m.author === 'visitor').map((m) => m.text),
    (found) => found.length > 0,
  );
  t.deepEqual(texts, ['No']);
});

test('no ask once the 24-hour window has closed', async (t) => {
  const { conversationId, close, interactive } = await answeredCustomer();
  // The customer last wrote 25 hours ago.
  await bed.stack.api.redis.hSet(`${prefix()}:messaging:conversation:${conversationId}`, {
    lastCustomerMessageAt: String(Date.now() - 25 * 3600 * 1000),
  });
  await close('idle');
  t.like(await records().get(conversationId), { outcome: 'resolved' });
  t.deepEqual(interactive(), []);
  t.false((await transcript().read(conversationId)).some((m) => m.ask));
});
