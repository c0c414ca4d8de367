import { randomUUID } from 'node:crypto';
import test from 'ava';
import { conversationKeys } from '#conversations/redis-keys.js';
import { createConversationRecords } from '#conversations/records.js';
import { createConversationClient } from '#conversations/workflow-client.js';
import { chattyVisitors, conversationAboutReturns, testActionWait } from '#testing/chat.js';
import { eventually } from '#testing/eventually.js';
import { useStackWithTemporal } from '#testing/ingestion.js';
import { conversationWorkflowId } from '#workflows/ids.js';
import { bucketSeconds, createDayCounters, dayOf } from './day-counters.js';

/*
 * Outcomes and activity counters of widget conversations, end to end: the real API, worker,
 * Temporal, Weaviate and Redis; each test its own tenant and operator, so its own counters.
 */

const bed = useStackWithTemporal(test, () => chattyVisitors);

const agent = { agentId: 'agent-1', name: 'Ada' };
const agents = () => createConversationClient(bed.temporal.client, bed.stack.api.config.temporal.taskQueue, testActionWait);
const records = () => createConversationRecords(bed.stack.api.redis, bed.stack.api.config.redis.prefix);
const answered = 'How long do I have to return an item?';
const unknown = 'Do you sell submarines with a warp drive?';

async function conversation() {
  const { ref, visitor, chat } = await conversationAboutReturns(bed.stack.api);
  const ask = async (text: string) => (await chat.ask(visitor, text)).reply;
  /** Closes the conversation and waits for its workflow to end: everything of the close is done. */
  const close = async (by: 'idle' | 'agent') => {
    await agents().close(ref, by);
    await bed.temporal.client.workflow.getHandle(conversationWorkflowId(ref.tenantId, ref.conversationId)).result();
    return (await records().get(ref.conversationId))!;
  };
  const waitingForAgent = () =>
    eventually(
      () => records().get(ref.conversationId),
      (record) => record?.status === 'waiting_for_agent',
    );
  /** Today's counters (and most cited sources) of this operator. */
  const today = async () => {
    const read = await createDayCounters(bed.stack.api.redis, bed.stack.api.config.redis.prefix).read(ref, [dayOf(new Date())], {
      topSources: 10,
    });
    return { ...read.days[0]!, topSources: read.topSources };
  };
  return { ref, ask, close, waitingForAgent, today };
}

test('resolved: a question answered, no handoff, nothing rated down; counted once with its cited source', async (t) => {
  const { ref, ask, close, today } = await conversation();
  t.is((await ask(answered)).outcome, 'answered');
  const record = await close('idle');
  t.like(record, { status: 'closed', closedBy: 'idle', outcome: 'resolved', outcomeDay: dayOf(new Date()) });
  t.is(record.handoffBy, undefined);
  const { counts, topSources } = await today();
  t.deepEqual(counts, {
    'started:widget': 1,
    'answers:widget:answered': 1,
    'closed:widget': 1,
    'outcome:widget:resolved': 1,
  });
  t.deepEqual(topSources, [{ key: `${ref.knowledgeBaseId}/returns`, title: 'Returns policy', citations: 1 }]);
});

test('handed off by the visitor: the outcome, the reason, and the time to the first agent reply', async (t) => {
  const { ref, ask, close, waitingForAgent, today } = await conversation();
  const askedAt = Date.now();
  t.is((await ask('Can I talk to a human please?')).outcome, 'handoff');
  await waitingForAgent();
  await agents().takeOver(ref, agent);
  await agents().agentReply(ref, { agentId: agent.agentId, messageId: randomUUID(), text: 'Hi, Ada here.' });
  const repliedAfter = (Date.now() - askedAt) / 1000;
  await agents().agentReply(ref, { agentId: agent.agentId, messageId: randomUUID(), text: 'Anything else?' });
  const record = await close('agent');
  t.like(record, { closedBy: 'agent', outcome: 'handed_off', handoffBy: 'visitor' });
  const { counts } = await today();
  const firstReplies = Object.entries(counts).filter(([field]) => field.startsWith('first_reply:widget:b'));
  t.is(firstReplies.length, 1, 'one first reply, the second reply is not counted');
  const [field, count] = firstReplies[0]!;
  t.is(count, 1);
  const bucket = Number(field.slice('first_reply:widget:b'.length));
  t.true(bucketSeconds(bucket) <= Math.max(1, repliedAfter) * 1.1, `bucket ${bucket} within ${repliedAfter} s`);
  t.like(counts, { 'closed:widget': 1, 'outcome:widget:handed_off': 1, 'handoff:widget:visitor': 1 });
});

test('handed off by the AI after two questions it could not answer', async (t) => {
  const { ask, close, waitingForAgent, today } = await conversation();
  t.is((await ask(unknown)).outcome, 'unknown');
  t.is((await ask(unknown)).outcome, 'unknown');
  await waitingForAgent();
  t.like(await close('agent'), { outcome: 'handed_off', handoffBy: 'ai' });
  t.like((await today()).counts, {
    'answers:widget:unknown': 2,
    'outcome:widget:handed_off': 1,
    'handoff:widget:ai': 1,
  });
});

test('handed off by an agent taking over unasked, and the time to their first reply runs from the takeover', async (t) => {
  const { ref, ask, close, today } = await conversation();
  t.is((await ask(answered)).outcome, 'answered');
  const before = Date.now();
  await agents().takeOver(ref, agent);
  await agents().agentReply(ref, { agentId: agent.agentId, messageId: randomUUID(), text: 'Hi, can I help?' });
  const repliedAfter = (Date.now() - before) / 1000;
  t.like(await close('agent'), { outcome: 'handed_off', handoffBy: 'agent' });
  const { counts } = await today();
  t.like(counts, { 'outcome:widget:handed_off': 1, 'handoff:widget:agent': 1, 'answers:widget:answered': 1 });
  const [field] = Object.keys(counts).filter((name) => name.startsWith('first_reply:widget:b'));
  t.true(bucketSeconds(Number(field!.slice('first_reply:widget:b'.length))) <= Math.max(1, repliedAfter) * 1.1);
});

test('abandoned: no question at all', async (t) => {
  const { close, today } = await conversation();
  t.like(await close('idle'), { outcome: 'abandoned', closedBy: 'idle' });
  t.deepEqual((await today()).counts, { 'started:widget': 1, 'closed:widget': 1, 'outcome:widget:abandoned': 1 });
});

test('abandoned: only a question the AI could not answer', async (t) => {
  const { ask, close, today } = await conversation();
  t.is((await ask(unknown)).outcome, 'unknown');
  t.like(await close('idle'), { outcome: 'abandoned' });
  t.like((await today()).counts, { 'answers:widget:unknown': 1, 'outcome:widget:abandoned': 1 });
});

test('abandoned: the answer was rated down', async (t) => {
  const { ref, ask, close, today } = await conversation();
  const reply = await ask(answered);
  t.is(reply.outcome, 'answered');
  // As the ratings store writes it.
  await bed.stack.api.redis.hSet(
    conversationKeys(bed.stack.api.config.redis.prefix).feedback(ref.conversationId),
    reply.id,
    JSON.stringify({ rating: 'down', reason: 'Not what I asked', ratedAt: new Date().toISOString() }),
  );
  t.like(await close('idle'), { outcome: 'abandoned' });
  t.like((await today()).counts, { 'answers:widget:answered': 1, 'outcome:widget:abandoned': 1 });
  t.is((await today()).counts['outcome:widget:resolved'], undefined);
});
