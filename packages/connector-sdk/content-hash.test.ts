import test from 'ava';
import { createHash } from 'node:crypto';
import { contentHash } from './content-hash.js';

test('is SHA-256 hex of JSON.stringify([title, content])', (t) => {
  const expected = createHash('sha256').update('["Mug","Blue, 300 ml"]').digest('hex');
  t.is(contentHash('Mug', 'Blue, 300 ml'), expected);
  t.regex(contentHash('a', 'b'), /^[0-9a-f]{64}$/);
});

test('is stable and unambiguous where concatenation would collide', (t) => {
  t.is(contentHash('Mug', 'Blue'), contentHash('Mug', 'Blue'));
  t.not(contentHash('ab', 'c'), contentHash('a', 'bc'));
  t.not(contentHash('Mug', 'Blue'), contentHash('Mug', 'Blue '));
});
