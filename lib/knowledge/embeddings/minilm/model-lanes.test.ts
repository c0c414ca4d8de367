import test from 'ava';
import { createLaneQueue } from './model-lanes.js';

/** A model stand-in: one dimension, each text's length as its vector, after a delay; records each call. */
function recordingModel(delayMs = 5) {
  const calls: string[][] = [];
  let release: (() => void) | undefined;
  const run = async (texts: string[]) => {
    calls.push(texts);
    if (texts.includes('poison')) throw new Error('model failed');
    if (texts.includes('hold')) await new Promise<void>((resolve) => (release = resolve));
    else await new Promise((resolve) => setTimeout(resolve, delayMs));
    return {
      vectors: Float64Array.from(texts.map((text) => text.length)),
      seconds: 0.001,
    };
  };
  return { run, calls, release: () => release?.() };
}

const rows = (vectors: Float64Array[]) => vectors.map((vector) => [...vector]);

test('each text gets its own vector back, in order, across calls of a few texts each', async (t) => {
  const model = recordingModel();
  const queue = createLaneQueue(model.run, { textsPerCall: 2, callsInFlight: 1, dimensions: 1 });
  t.deepEqual(rows(await queue.submit(['a', 'bb', 'ccc', 'dddd'], 'bulk')), [[1], [2], [3], [4]]);
  t.deepEqual(model.calls, [
    ['a', 'bb'],
    ['ccc', 'dddd'],
  ]);
});

test('concurrent callers share calls; the observer hears how long each input waited and each call ran', async (t) => {
  const model = recordingModel();
  const observed: Array<{ lane: string; waitedSeconds: number[]; ranSeconds: number }> = [];
  const observer = {
    called: (lane: string, call: { waitedSeconds: number[]; ranSeconds: number }) => observed.push({ lane, ...call }),
  };
  const queue = createLaneQueue(model.run, { textsPerCall: 4, callsInFlight: 1, dimensions: 1, observer });
  const results = await Promise.all([
    queue.submit(['a'], 'bulk'),
    queue.submit(['bb', 'ccc'], 'bulk'),
    queue.submit(['dddd'], 'bulk'),
  ]);
  t.deepEqual(results.map(rows), [[[1]], [[2], [3]], [[4]]]);
  // The first went alone at once; the others waited for it and went together.
  t.deepEqual(model.calls, [['a'], ['bb', 'ccc', 'dddd']]);
  t.deepEqual(
    observed.map(({ lane, waitedSeconds, ranSeconds }) => [lane, waitedSeconds.length, ranSeconds]),
    [
      ['bulk', 1, 0.001],
      ['bulk', 3, 0.001],
    ],
  );
  t.true(
    observed[1]!.waitedSeconds.every((seconds) => seconds >= 0.003),
    'the second call waited for the first',
  );
});

test('a question and a person’s change overtake every waiting chunk of an import, in that order', async (t) => {
  const model = recordingModel();
  const queue = createLaneQueue(model.run, { textsPerCall: 2, callsInFlight: 1, dimensions: 1 });
  const imported = queue.submit(['hold', 'i1', 'i2', 'i3', 'i4'], 'bulk');
  const change = queue.submit(['change'], 'interactive');
  const question = queue.submit(['question?'], 'query');
  t.deepEqual(queue.waiting(), { query: 1, interactive: 1, bulk: 3 });
  model.release();
  await Promise.all([imported, change, question]);
  t.deepEqual(model.calls, [['hold', 'i1'], ['question?'], ['change'], ['i2', 'i3'], ['i4']]);
});

test('calls in flight are bounded; a failed call fails its callers only, and the queue goes on', async (t) => {
  const model = recordingModel();
  const queue = createLaneQueue(model.run, { textsPerCall: 1, callsInFlight: 2, dimensions: 1 });
  const failed = queue.submit(['poison', 'after'], 'bulk');
  const fine = queue.submit(['ok'], 'bulk');
  await t.throwsAsync(failed, { message: 'model failed' });
  t.deepEqual(rows(await fine), [[2]]);
  t.deepEqual(rows(await queue.submit(['x'], 'query')), [[1]]);
  t.deepEqual(await queue.submit([], 'bulk'), []);
});
