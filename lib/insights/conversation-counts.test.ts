import { randomUUID } from 'node:crypto';
import test from 'ava';
import { conversationKeys } from '#conversations/redis-keys.js';
import { useTestRedis } from '#testing/redis.js';
import type { ClosingFacts, ConversationRef } from '#workflows/conversations/types.js';
import { createConversationCounts } from './conversation-counts.js';
import { createDayCounters, firstReplyBucket } from './day-counters.js';
import { decideOutcome } from './outcome.js';

const testRedis = useTestRedis(test);
const at = new Date('2026-03-04T10:00:00Z');
const counts = () => createConversationCounts(testRedis.redis(), testRedis.prefix, () => at);
const dayOf = async (ref: ConversationRef) =>
  (await createDayCounters(testRedis.redis(), testRedis.prefix).read(ref, ['2026-03-04'])).days[0]!;
const topSourcesOf = async (ref: ConversationRef) =>
  (await createDayCounters(testRedis.redis(), testRedis.prefix).read(ref, ['2026-03-04'], { topSources: 10 })).topSources;

function conversation(channel: ConversationRef['channel'] = 'widget'): ConversationRef {
  return {
    conversationId: randomUUID(),
    tenantId: randomUUID(),
    operatorId: randomUUID(),
    knowledgeBaseId: 'kb-1',
    channel,
    locale: 'en',
  };
}

test('the outcome rule: a handoff, else resolved only when answered and never rated down', (t) => {
  t.is(decideOutcome({ handoffBy: 'visitor', answered: true, ratedDown: false }), 'handed_off');
  t.is(decideOutcome({ handoffBy: 'agent', answered: false, ratedDown: true }), 'handed_off');
  t.is(decideOutcome({ handoffBy: null, answered: true, ratedDown: false }), 'resolved');
  t.is(decideOutcome({ handoffBy: null, answered: true, ratedDown: true }), 'abandoned');
  t.is(decideOutcome({ handoffBy: null, answered: false, ratedDown: false }), 'abandoned');
});

test('starts, answers with their sources and first replies count once however often they are reported', async (t) => {
  const ref = conversation('messaging');
  const sources = [{ key: 'kb-1/returns', title: 'Returns policy' }];
  for (let attempt = 0; attempt < 2; attempt++) {
    await counts().started(ref);
    await counts().answered(ref, 'm1.reply', 'answered', sources);
    await counts().answered(ref, 'm2.reply', 'unknown', []);
    await counts().firstReply(ref, 42);
  }
  await counts().answered(ref, 'm3.reply', 'answered', [{ key: 'kb-1/returns', title: 'Returns, renamed' }]);
  const { counts: day } = await dayOf(ref);
  t.deepEqual(day, {
    'started:messaging': 1,
    'answers:messaging:answered': 2,
    'answers:messaging:unknown': 1,
    [`first_reply:messaging:b${firstReplyBucket(42)}`]: 1,
  });
  t.deepEqual(await topSourcesOf(ref), [{ key: 'kb-1/returns', title: 'Returns, renamed', citations: 2 }], 'the latest title');
});

test('a close is counted once and written to the record; a down rating makes it abandoned', async (t) => {
  const facts: ClosingFacts = { closedBy: 'idle', handoffBy: null, answered: true };
  const resolved = conversation();
  t.like(await counts().closed(resolved, facts), { counted: true, outcome: 'resolved' });
  t.like(await counts().closed(resolved, facts), { counted: false, outcome: 'resolved' }, 'a retry counts nothing');
  t.deepEqual((await dayOf(resolved)).counts, { 'closed:widget': 1, 'outcome:widget:resolved': 1 });
  const record = await testRedis.redis().hGetAll(conversationKeys(testRedis.prefix).record(resolved.conversationId));
  t.deepEqual(record, { closedBy: 'idle', outcome: 'resolved', outcomeDay: '2026-03-04' });

  const down = conversation();
  await testRedis
    .redis()
    .hSet(conversationKeys(testRedis.prefix).feedback(down.conversationId), 'm1.reply', JSON.stringify({ rating: 'down' }));
  t.like(await counts().closed(down, facts), { counted: true, outcome: 'abandoned' });

  const handedOff = conversation();
  await counts().closed(handedOff, { closedBy: 'agent', handoffBy: 'ai', answered: false });
  t.deepEqual((await dayOf(handedOff)).counts, {
    'closed:widget': 1,
    'outcome:widget:handed_off': 1,
    'handoff:widget:ai': 1,
  });
  const handedOffRecord = await testRedis.redis().hGetAll(conversationKeys(testRedis.prefix).record(handedOff.conversationId));
  t.like(handedOffRecord, { handoffBy: 'ai', closedBy: 'agent', outcome: 'handed_off' });
});

test('the ask is decided once, by whether an answer was rated when it closed', async (t) => {
  const facts: ClosingFacts = { closedBy: 'idle', handoffBy: null, answered: true };
  const ask = { unrated: 'answer_feedback', rated: '' };
  const unrated = conversation('messaging');
  t.is((await counts().closed(unrated, facts, ask)).ask, 'answer_feedback');
  await testRedis
    .redis()
    .hSet(conversationKeys(testRedis.prefix).feedback(unrated.conversationId), 'm1.reply', JSON.stringify({ rating: 'up' }));
  t.is((await counts().closed(unrated, facts, ask)).ask, 'answer_feedback', 'a retry reads the first decision');

  const rated = conversation('messaging');
  await testRedis
    .redis()
    .hSet(conversationKeys(testRedis.prefix).feedback(rated.conversationId), 'm1.reply', JSON.stringify({ rating: 'up' }));
  t.is((await counts().closed(rated, facts, ask)).ask, '');
});
