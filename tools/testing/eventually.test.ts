import test from 'ava';
import { eventually, stillAfter } from './eventually.js';

/** A reader whose values are `values` in turn, the last one again once they run out. */
function reads<T>(...values: T[]) {
  let next = 0;
  return async () => values[Math.min(next++, values.length - 1)]!;
}

test('eventually returns the first value done says yes to', async (t) => {
  t.is(await eventually(reads(1, 2, 3, 4), (value) => value >= 3, { intervalMs: 1 }), 3);
});

test('eventually throws when the awaited value never comes, naming the last value read', async (t) => {
  const error = await t.throwsAsync(
    eventually(reads({ status: 'open' }), (value) => value.status === 'closed', { timeoutMs: 50, intervalMs: 5 }),
  );
  t.regex(error.message, /^eventually: not done after 50 ms; last value read: \{ status: 'open' \}$/);
});

test('a long last value is cut short in the message', async (t) => {
  const error = await t.throwsAsync(
    eventually(reads(Array.from({ length: 100 }, () => 'x'.repeat(5_000))), () => false, { timeoutMs: 10, intervalMs: 5 }),
  );
  t.true(error.message.length < 1_000, error.message);
  t.true(error.message.endsWith('…'));
});

test('stillAfter returns the last value when it held throughout the window', async (t) => {
  t.deepEqual(await stillAfter(reads<string[]>([]), (arrived) => arrived.length === 0, { forMs: 30, intervalMs: 5 }), []);
});

test('stillAfter throws at the first value that breaks it, naming it', async (t) => {
  const error = await t.throwsAsync(
    stillAfter(reads<string[]>([], ['late']), (arrived) => arrived.length === 0, { forMs: 10_000, intervalMs: 5 }),
  );
  t.is(error.message, "stillAfter: stopped holding within 10000 ms; value read: [ 'late' ]");
});
