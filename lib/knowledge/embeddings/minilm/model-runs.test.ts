import test from 'ava';
import { meanPooled, runOf } from './model-runs.js';

// One "word piece" per character: runs are easy to read.
const encode = (text: string) => [...text.replace(/\s/g, '')].map((char) => char.charCodeAt(0));
const special = { cls: 1, sep: 2 };

test('a text is one run, [CLS] and [SEP] around it; one past the window keeps its start', (t) => {
  t.deepEqual(runOf('abc', encode, special, 10), [1, 97, 98, 99, 2]);
  const long = runOf('x'.repeat(20), encode, special, 10);
  t.is(long.length, 10);
  t.deepEqual([long[0], long[8], long[9]], [1, 120, 2]);
});

test('pooling is the mean over the run, scaled to length one', (t) => {
  // Three positions of two dimensions; the third is not part of the run.
  const hidden = Float32Array.from([1, 0, 3, 0, 0, 9]);
  const into = new Float64Array(2);
  meanPooled(hidden, 2, 2, into);
  t.deepEqual([...into], [1, 0]);
  meanPooled(Float32Array.from([0, 0]), 1, 2, into);
  t.deepEqual([...into], [0, 0], 'a zero vector stays zero');
});
