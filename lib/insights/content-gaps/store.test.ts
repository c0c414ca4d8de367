import test from 'ava';
import { useTestRedis } from '#testing/redis.js';
import { createGapRecorder, gapIdOf } from './recorder.js';
import { contentGapKeys, createContentGapStore, gapRetentionDays } from './store.js';
import type { GapInput } from './types.js';

const store = useTestRedis(test);
let owners = 0;
const newOwner = () => ({ tenantId: 'tenant-a', operatorId: `op-${++owners}` });

const embedder = {
  space: { provider: 'test', model: 'fixed', dimensions: 3 },
  embed: async (texts: string[]) => texts.map((text) => [text.length, 1, 0]),
};

function input(
  owner: { tenantId: string; operatorId: string },
  messageId: string,
  question = 'Do you ship to Norway?',
): GapInput {
  return {
    ...owner,
    knowledgeBaseId: 'kb-1',
    conversationId: 'conv-1',
    messageId,
    question,
    locale: 'en',
    channel: 'widget',
    reason: 'unknown',
    closestSources: [{ key: 'kb-1/shipping', title: 'Shipping', score: 0.41 }],
  };
}

test('a retried recording stores the gap once, and signals each time', async (t) => {
  const owner = newOwner();
  const gaps = createContentGapStore(store.redis(), store.prefix);
  const signalled: unknown[] = [];
  const record = createGapRecorder({
    store: gaps,
    embedder,
    recorded: async (who) => void signalled.push(who),
    onError: (error) => t.fail(String(error)),
  });
  t.true(await record(input(owner, 'm1.reply')));
  t.false(await record(input(owner, 'm1.reply')));
  const { gaps: loaded, seq } = await gaps.load(owner);
  t.is(seq, 1);
  t.is(loaded.length, 1);
  t.like(loaded[0], {
    id: gapIdOf('conv-1', 'm1.reply'),
    question: 'Do you ship to Norway?',
    reason: 'unknown',
    space: 'test/fixed/3',
    closestSources: [{ key: 'kb-1/shipping', title: 'Shipping', score: 0.41 }],
  });
  t.deepEqual(signalled, [owner, owner]);
});

test('a failing recording is reported, never thrown', async (t) => {
  const errors: unknown[] = [];
  const record = createGapRecorder({
    store: createContentGapStore(store.redis(), store.prefix),
    embedder: { ...embedder, embed: () => Promise.reject(new Error('model away')) },
    recorded: async () => undefined,
    onError: (error) => errors.push(error),
  });
  t.false(await record(input(newOwner(), 'm1.reply')));
  t.is((errors[0] as Error).message, 'model away');
});

test('past the cap the oldest gaps go, and past 13 months every one', async (t) => {
  const owner = newOwner();
  let now = new Date('2026-01-01T00:00:00.000Z');
  const gaps = createContentGapStore(store.redis(), store.prefix, { maxGaps: 3, now: () => now });
  const record = createGapRecorder({ store: gaps, embedder, recorded: async () => undefined, onError: t.fail, now: () => now });
  for (let i = 0; i < 5; i++) {
    now = new Date(Date.UTC(2026, 0, 1 + i));
    await record(input(owner, `m${i}`, `question ${i}`));
  }
  t.deepEqual(
    (await gaps.load(owner)).gaps.map((gap) => gap.question),
    ['question 2', 'question 3', 'question 4'],
  );
  t.is(await store.redis().hLen(contentGapKeys(store.prefix).gaps(owner)), 3);

  now = new Date(Date.UTC(2026, 0, 4 + gapRetentionDays, 12));
  await record(input(owner, 'm5', 'question 5'));
  t.deepEqual(
    (await gaps.load(owner)).gaps.map((gap) => gap.question),
    ['question 4', 'question 5'],
  );
});
