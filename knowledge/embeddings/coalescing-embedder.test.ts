import test from 'ava';
import { coalescingEmbedder } from './coalescing-embedder.js';
import type { Embedder } from './embedder.js';

/** A model stand-in that records each call's texts and answers with each text's length, after a delay. */
function recordingModel(delayMs = 5, failOn?: string) {
  const calls: string[][] = [];
  const model: Embedder = {
    space: { provider: 'test', model: 'lengths', dimensions: 1 },
    async embed(texts) {
      calls.push(texts);
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      if (failOn && texts.includes(failOn)) throw new Error('model failed');
      return texts.map((text) => [text.length]);
    },
  };
  return { model, calls };
}

const texts = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => `${prefix}${'x'.repeat(i)}`);

test('concurrent calls share model calls and each gets its own vectors in order', async (t) => {
  const { model, calls } = recordingModel();
  const embedder = coalescingEmbedder(model, { maxBatch: 64, maxWaitMs: 2 });
  const callers = Array.from({ length: 10 }, (_, i) => texts(`c${i}-`, 3));
  const results = await Promise.all(callers.map((input) => embedder.embed(input)));
  results.forEach((vectors, i) =>
    t.deepEqual(
      vectors,
      callers[i]!.map((text) => [text.length]),
    ),
  );
  t.is(calls.length, 1, 'thirty texts of ten callers went in one model call');
});

test('no model call takes more than maxBatch texts; a long caller spans several', async (t) => {
  const { model, calls } = recordingModel();
  const embedder = coalescingEmbedder(model, { maxBatch: 8, maxWaitMs: 2 });
  const long = texts('long-', 20);
  const [longVectors, shortVectors] = await Promise.all([embedder.embed(long), embedder.embed(['a', 'bb'])]);
  t.deepEqual(
    longVectors,
    long.map((text) => [text.length]),
  );
  t.deepEqual(shortVectors, [[1], [2]]);
  for (const call of calls) t.true(call.length <= 8, `${call.length} texts`);
  t.is(calls.flat().length, 22);
});

test('calls arriving while the model works wait and go together in the next call', async (t) => {
  const { model, calls } = recordingModel(30);
  const embedder = coalescingEmbedder(model, { maxBatch: 64, maxWaitMs: 1 });
  const first = embedder.embed(['first']);
  await new Promise((resolve) => setTimeout(resolve, 10));
  const later = Promise.all([embedder.embed(['second']), embedder.embed(['third'])]);
  await Promise.all([first, later]);
  t.deepEqual(calls, [['first'], ['second', 'third']]);
});

test('with no wait, calls of the same turn still share a model call, and a lone call goes at once', async (t) => {
  const { model, calls } = recordingModel(1);
  const embedder = coalescingEmbedder(model, { maxBatch: 64, maxWaitMs: 0 });
  await Promise.all([embedder.embed(['a']), embedder.embed(['b', 'c'])]);
  t.deepEqual(calls, [['a', 'b', 'c']]);
  // A lone call is sent in the next turn, without waiting for a timer.
  const started = embedder.embed(['d']);
  await new Promise((resolve) => setImmediate(resolve));
  t.deepEqual(calls.at(-1), ['d']);
  await started;
});

test('a failed model call fails its callers only; the next call works', async (t) => {
  const { model } = recordingModel(5, 'poison');
  const embedder = coalescingEmbedder(model, { maxBatch: 2, maxWaitMs: 1 });
  const poisoned = embedder.embed(['poison', 'p2', 'p3']);
  const fine = embedder.embed(['ok']);
  await t.throwsAsync(poisoned, { message: 'model failed' });
  t.deepEqual(await fine, [[2]]);
  t.deepEqual(await embedder.embed([]), []);
});
