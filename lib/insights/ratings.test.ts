import { randomUUID } from 'node:crypto';
import test from 'ava';
import type { ChatMessage } from '#conversations/chat-message.js';
import { createConversationRecords } from '#conversations/records.js';
import { conversationKeys } from '#conversations/redis-keys.js';
import { createTranscript } from '#conversations/transcript.js';
import { useTestRedis } from '#testing/redis.js';
import type { Channel } from '#workflows/conversations/types.js';
import { createDayCounters, dayExpiry, insightKeys } from './day-counters.js';
import { createRatings, type RatedDownAnswer, type RatingsDeps } from './ratings.js';

const store = useTestRedis(test);
const owner = { tenantId: 'tenant-r', operatorId: 'op_r' };

/** A clock the test moves. */
function clock(start: string) {
  let at = new Date(start);
  return { now: () => at, set: (next: string) => void (at = new Date(next)) };
}

const citation = (n: number, externalId: string, title: string) => ({ n, title, url: null, externalId, sourceType: 'article' });

/**
 * A conversation with a greeting, two questions answered (the first citing two sources), one the AI
 * could not answer, and a handoff notice, on its own operator so its counters are its own.
 */
async function conversation(options: { channel?: Channel; answered?: boolean } = {}) {
  const redis = store.redis();
  const conversationId = randomUUID();
  const operator = { ...owner, operatorId: `op_${randomUUID().slice(0, 8)}` };
  await createConversationRecords(redis, store.prefix).create({
    conversationId,
    ...operator,
    knowledgeBaseId: 'kb1',
    channel: options.channel ?? 'widget',
    locale: 'de',
    visitorTokenHash: '',
    contact: {},
  });
  const ai = (id: string, replyTo: string, outcome: ChatMessage['outcome'], citations: ChatMessage['citations'] = []) =>
    ({
      id,
      author: 'ai',
      text: 'An answer',
      createdAt: new Date().toISOString(),
      aiGenerated: true,
      replyTo,
      outcome,
      citations,
    }) as ChatMessage;
  const visitor = (id: string, text: string) =>
    ({ id, author: 'visitor', text, createdAt: new Date().toISOString(), aiGenerated: false }) as ChatMessage;
  const transcript = createTranscript(redis, store.prefix);
  const messages = [
    { id: 'greeting', author: 'ai', text: 'Hello', createdAt: new Date().toISOString(), aiGenerated: true } as ChatMessage,
    visitor('q1', 'How do I return a tent?'),
    options.answered === false
      ? ai('q1.reply', 'q1', 'unknown')
      : ai('q1.reply', 'q1', 'answered', [citation(1, 'returns', 'Returns'), citation(2, 'tents', 'Tents')]),
    visitor('q2', 'Do you sell kayaks?'),
    ai('q2.reply', 'q2', 'unknown'),
    visitor('q3', 'Shipping to Austria?'),
    ai('q3.reply', 'q3', options.answered === false ? 'unknown' : 'answered', [citation(1, 'shipping', 'Shipping')]),
    visitor('q4', 'A person please'),
    ai('q4.reply', 'q4', 'handoff'),
  ];
  for (const message of messages) await transcript.append(conversationId, message);
  return { conversationId, operator };
}

function ratingsWith(overrides: Partial<RatingsDeps> = {}) {
  const redis = store.redis();
  const warned: unknown[][] = [];
  const ratings = createRatings({
    redis,
    prefix: store.prefix,
    records: createConversationRecords(redis, store.prefix),
    transcript: createTranscript(redis, store.prefix),
    logger: { warn: (...args: unknown[]) => void warned.push(args) },
    ...overrides,
  });
  return { ratings, warned };
}

const countsOn = async (operator: typeof owner, day: string) =>
  (await createDayCounters(store.redis(), store.prefix).read(operator, [day])).days[0]!.counts;

const recordOf = (conversationId: string) => store.redis().hGetAll(conversationKeys(store.prefix).record(conversationId));

test('a rating replaced moves its count, on the day it was first given, and the stored entry is the latest', async (t) => {
  const time = clock('2026-03-01T23:59:00Z');
  const { ratings } = ratingsWith({ now: time.now });
  const { conversationId, operator } = await conversation();

  const up = await ratings.rateAnswer({ conversationId, messageId: 'q1.reply', rating: 'up' });
  t.deepEqual(up, { messageId: 'q1.reply', rating: 'up', reason: null, ratedAt: '2026-03-01T23:59:00.000Z' });
  t.deepEqual(await countsOn(operator, '2026-03-01'), { 'feedback:widget:up': 1 });

  time.set('2026-03-02T08:00:00Z');
  const down = await ratings.rateAnswer({ conversationId, messageId: 'q1.reply', rating: 'down', reason: 'Wrong tent.' });
  t.deepEqual(down, { messageId: 'q1.reply', rating: 'down', reason: 'Wrong tent.', ratedAt: '2026-03-02T08:00:00.000Z' });
  t.deepEqual(await countsOn(operator, '2026-03-01'), { 'feedback:widget:up': 0, 'feedback:widget:down': 1 });
  t.deepEqual(await countsOn(operator, '2026-03-02'), {});

  const stored = (await ratings.answerRatingsOf(conversationId)).get('q1.reply');
  t.deepEqual(stored, {
    day: '2026-03-01',
    rating: 'down',
    reason: 'Wrong tent.',
    citedSources: [
      { key: 'kb1/returns', title: 'Returns' },
      { key: 'kb1/tents', title: 'Tents' },
    ],
    ratedAt: '2026-03-02T08:00:00.000Z',
    question: 'How do I return a tent?',
  });
  const key = insightKeys(store.prefix).day(operator, '2026-03-01');
  t.is(await store.redis().expireTime(key), dayExpiry('2026-03-01'));
});

test('the same rating twice counts once, and the latest reason stands (none clears it)', async (t) => {
  const { ratings } = ratingsWith({ now: () => new Date('2026-04-10T10:00:00Z') });
  const { conversationId, operator } = await conversation({ channel: 'messaging' });
  await ratings.rateAnswer({ conversationId, messageId: 'q2.reply', rating: 'down', reason: 'Nothing useful' });
  await ratings.rateAnswer({ conversationId, messageId: 'q2.reply', rating: 'down' });
  t.deepEqual(await countsOn(operator, '2026-04-10'), { 'feedback:messaging:down': 1 });
  t.is((await ratings.answerRatingsOf(conversationId)).get('q2.reply')!.reason, null);
  t.deepEqual((await ratings.answerRatingsOf(conversationId)).get('q2.reply')!.citedSources, []);
});

test('only AI answers of the conversation can be rated', async (t) => {
  const { ratings } = ratingsWith();
  const { conversationId, operator } = await conversation();
  const other = await conversation();
  for (const messageId of ['nope', 'q1', 'greeting', 'q4.reply'])
    t.is(await ratings.rateAnswer({ conversationId, messageId, rating: 'up' }), undefined, messageId);
  t.is(await ratings.rateAnswer({ conversationId: randomUUID(), messageId: 'q1.reply', rating: 'up' }), undefined);
  // The other conversation's answers have the same ids here: rating one touches only that conversation.
  await ratings.rateAnswer({ conversationId: other.conversationId, messageId: 'q1.reply', rating: 'up' });
  t.is((await ratings.answerRatingsOf(conversationId)).size, 0);
  t.deepEqual(await countsOn(operator, new Date().toISOString().slice(0, 10)), {});
});

test("the counts' day expires as the day counters' do, in any month and leap day", async (t) => {
  for (const at of ['2028-02-29T12:00:00Z', '2026-12-31T23:00:00Z', '2027-01-01T00:00:00Z']) {
    const { ratings } = ratingsWith({ now: () => new Date(at) });
    const { conversationId, operator } = await conversation();
    await ratings.rateAnswer({ conversationId, messageId: 'q1.reply', rating: 'up' });
    const day = at.slice(0, 10);
    t.is(await store.redis().expireTime(insightKeys(store.prefix).day(operator, day)), dayExpiry(day), day);
  }
});

/** Closes the conversation as the outcome's author does: the record's fields and the close's counts. */
async function closeWith(conversationId: string, operator: typeof owner, outcome: string, outcomeDay: string) {
  await store.redis().hSet(conversationKeys(store.prefix).record(conversationId), { outcome, outcomeDay, status: 'closed' });
  await createDayCounters(store.redis(), store.prefix).add(operator, outcomeDay, [`outcome:widget:${outcome}`]);
}

test('a down moves a resolved conversation to abandoned on its close day, and the last down replaced moves it back', async (t) => {
  const { ratings } = ratingsWith({ now: () => new Date('2026-05-03T09:00:00Z') });
  const { conversationId, operator } = await conversation();
  await closeWith(conversationId, operator, 'resolved', '2026-05-01');

  await ratings.rateAnswer({ conversationId, messageId: 'q1.reply', rating: 'up' });
  t.is((await recordOf(conversationId)).outcome, 'resolved', 'an up changes nothing');
  await ratings.rateAnswer({ conversationId, messageId: 'q1.reply', rating: 'down' });
  t.is((await recordOf(conversationId)).outcome, 'abandoned');
  t.deepEqual(await countsOn(operator, '2026-05-01'), { 'outcome:widget:resolved': 0, 'outcome:widget:abandoned': 1 });
  await ratings.rateAnswer({ conversationId, messageId: 'q3.reply', rating: 'down' });
  await ratings.rateAnswer({ conversationId, messageId: 'q1.reply', rating: 'up' });
  t.is((await recordOf(conversationId)).outcome, 'abandoned', 'another answer is still rated down');
  t.deepEqual(await countsOn(operator, '2026-05-01'), { 'outcome:widget:resolved': 0, 'outcome:widget:abandoned': 1 });
  await ratings.rateAnswer({ conversationId, messageId: 'q3.reply', rating: 'up' });
  t.is((await recordOf(conversationId)).outcome, 'resolved');
  t.deepEqual(await countsOn(operator, '2026-05-01'), { 'outcome:widget:resolved': 1, 'outcome:widget:abandoned': 0 });
  t.deepEqual(await countsOn(operator, '2026-05-03'), { 'feedback:widget:up': 2, 'feedback:widget:down': 0 });
});

test('an abandoned conversation with no answered question, a handed-off one and an open one keep their outcome', async (t) => {
  const { ratings } = ratingsWith({ now: () => new Date('2026-05-03T09:00:00Z') });
  const unanswered = await conversation({ answered: false });
  await closeWith(unanswered.conversationId, unanswered.operator, 'abandoned', '2026-05-02');
  await ratings.rateAnswer({ conversationId: unanswered.conversationId, messageId: 'q2.reply', rating: 'up' });
  t.is((await recordOf(unanswered.conversationId)).outcome, 'abandoned');
  t.deepEqual(await countsOn(unanswered.operator, '2026-05-02'), { 'outcome:widget:abandoned': 1 });

  const handedOff = await conversation();
  await closeWith(handedOff.conversationId, handedOff.operator, 'handed_off', '2026-05-02');
  await ratings.rateAnswer({ conversationId: handedOff.conversationId, messageId: 'q1.reply', rating: 'down' });
  t.is((await recordOf(handedOff.conversationId)).outcome, 'handed_off');
  t.deepEqual(await countsOn(handedOff.operator, '2026-05-02'), { 'outcome:widget:handed_off': 1 });

  const open = await conversation();
  await ratings.rateAnswer({ conversationId: open.conversationId, messageId: 'q1.reply', rating: 'down' });
  t.is((await recordOf(open.conversationId)).outcome, undefined);
});

test('a new down is handed on once, with the question and the cited sources; a failing hook fails nothing', async (t) => {
  const told: RatedDownAnswer[] = [];
  const { ratings } = ratingsWith({ onRatedDown: (answer) => void told.push(answer) });
  const { conversationId, operator } = await conversation();
  await ratings.rateAnswer({ conversationId, messageId: 'q1.reply', rating: 'down', reason: 'Wrong' });
  await ratings.rateAnswer({ conversationId, messageId: 'q1.reply', rating: 'down' });
  await ratings.rateAnswer({ conversationId, messageId: 'q3.reply', rating: 'up' });
  t.deepEqual(told, [
    {
      ...operator,
      knowledgeBaseId: 'kb1',
      conversationId,
      messageId: 'q1.reply',
      question: 'How do I return a tent?',
      locale: 'de',
      channel: 'widget',
      reason: 'rated_down',
      closestSources: [
        { key: 'kb1/returns', title: 'Returns', score: null },
        { key: 'kb1/tents', title: 'Tents', score: null },
      ],
    },
  ]);
  await ratings.rateAnswer({ conversationId, messageId: 'q1.reply', rating: 'up' });
  await ratings.rateAnswer({ conversationId, messageId: 'q1.reply', rating: 'down' });
  t.is(told.length, 2, 'down again after an up is a new down');

  const failing = ratingsWith({
    onRatedDown: () => {
      throw new Error('recorder away');
    },
  });
  const rated = await failing.ratings.rateAnswer({ conversationId, messageId: 'q2.reply', rating: 'down' });
  t.like(rated, { rating: 'down' });
  t.is(failing.warned.length, 1);
  t.regex(JSON.stringify(failing.warned[0]), /recorder away/);
});

test('a satisfaction score needs an agent close; a new score replaces it and moves its count', async (t) => {
  const time = clock('2026-06-01T10:00:00Z');
  const { ratings } = ratingsWith({ now: time.now });
  const { conversationId, operator } = await conversation();
  t.is(await ratings.rateSatisfaction({ conversationId, score: 4 }), 'not_closed_by_agent');
  t.is(await ratings.rateSatisfaction({ conversationId: randomUUID(), score: 4 }), 'not_found');
  for (const score of [0, 6, 2.5])
    await t.throwsAsync(ratings.rateSatisfaction({ conversationId, score }), { instanceOf: RangeError });
  await t.throwsAsync(ratings.rateAnswer({ conversationId, messageId: 'q1.reply', rating: 'meh' as 'up' }), {
    instanceOf: RangeError,
  });
  const records = createConversationRecords(store.redis(), store.prefix);
  await records.setStatus({ conversationId, tenantId: operator.tenantId }, 'closed', null, null, 'idle');
  t.is(await ratings.rateSatisfaction({ conversationId, score: 4 }), 'not_closed_by_agent');
  t.is(await ratings.satisfactionOf(conversationId), null);

  await records.setStatus({ conversationId, tenantId: operator.tenantId }, 'closed', null, null, 'agent');
  t.is((await records.get(conversationId))!.closedBy, 'agent');
  t.deepEqual(await ratings.rateSatisfaction({ conversationId, score: 4 }), { score: 4, ratedAt: '2026-06-01T10:00:00.000Z' });
  time.set('2026-06-02T10:00:00Z');
  await ratings.rateSatisfaction({ conversationId, score: 2 });
  await ratings.rateSatisfaction({ conversationId, score: 2 });
  t.deepEqual(await ratings.satisfactionOf(conversationId), { score: 2, ratedAt: '2026-06-02T10:00:00.000Z' });
  t.deepEqual(await countsOn(operator, '2026-06-01'), { 'satisfaction:widget:4': 0, 'satisfaction:widget:2': 1 });
  t.deepEqual(await countsOn(operator, '2026-06-02'), {});
});

test('transcript messages carry their feedback once rated', async (t) => {
  const { ratings } = ratingsWith();
  const { conversationId } = await conversation();
  await ratings.rateAnswer({ conversationId, messageId: 'q3.reply', rating: 'down', reason: 'Too slow' });
  const messages = await ratings.withFeedback(
    conversationId,
    await createTranscript(store.redis(), store.prefix).read(conversationId),
  );
  t.deepEqual(
    messages.filter((message) => message.feedback).map(({ id, feedback }) => ({ id, feedback })),
    [{ id: 'q3.reply', feedback: { rating: 'down', reason: 'Too slow' } }],
  );
});
