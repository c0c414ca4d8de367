import test from 'ava';
import { decodeSentenceVectors, encodeSentenceVectors, SentenceVectors } from './sentence-vectors.js';

const texts = ['Returns\n\nReturns are free within 30 days.', 'Returns\n\nRefunds take 5 business days.'];
const vectors = [
  [0.5, -0.25, 0.125],
  [1, 0, -1],
];

test('a stored vector is found by exactly the text it was embedded from', (t) => {
  const stored = decodeSentenceVectors(encodeSentenceVectors(texts, vectors));
  t.is(stored.size, 2);
  t.deepEqual(stored.get(texts[0]!), vectors[0]);
  t.deepEqual(stored.get(texts[1]!), vectors[1]);
  t.is(stored.get('Returns are free within 30 days.'), undefined);
  t.is(stored.get(`${texts[0]} `), undefined);
});

test('values keep float32 precision', (t) => {
  const vector = [0.1, 1 / 3, -0.7071067811865476];
  const [a, b, c] = decodeSentenceVectors(encodeSentenceVectors(['x'], [vector])).get('x')!;
  t.true(Math.abs(a! - 0.1) < 1e-7 && Math.abs(b! - 1 / 3) < 1e-7 && Math.abs(c! + 0.7071067811865476) < 1e-7);
});

test('a chunk without a blob, or with one of another shape, has none', (t) => {
  t.is(decodeSentenceVectors(undefined).size, 0);
  t.is(decodeSentenceVectors('').size, 0);
  t.is(decodeSentenceVectors(encodeSentenceVectors([], [])).size, 0);
  t.is(decodeSentenceVectors(Buffer.from([3, 0, 0, 0, 1, 2, 3]).toString('base64')).size, 0);
});

test('vectors of unequal dimensions, or not one per text, are refused', (t) => {
  t.throws(() => encodeSentenceVectors(texts, [vectors[0]!]), { message: /1 vectors for 2 texts/ });
  t.throws(() => encodeSentenceVectors(texts, [vectors[0]!, [1, 2]]), { message: /2 dimensions among ones of 3/ });
});

test('a passage of several chunks merges their vectors; none when no chunk has any', (t) => {
  const first = decodeSentenceVectors(encodeSentenceVectors([texts[0]!], [vectors[0]!]));
  const second = decodeSentenceVectors(encodeSentenceVectors([texts[1]!], [vectors[1]!]));
  const merged = SentenceVectors.merged([first, undefined, second])!;
  t.deepEqual([merged.get(texts[0]!), merged.get(texts[1]!)], vectors);
  t.is(SentenceVectors.merged([first, SentenceVectors.none]), first);
  t.is(SentenceVectors.merged([undefined, SentenceVectors.none]), undefined);
});
