import test from 'ava';
import { timeCalls } from './timed-calls.js';

test('each method call is timed by name, failed ones too; other properties pass through', async (t) => {
  const seen: Array<[string, number]> = [];
  const target = {
    name: 'store',
    async slow(x: number) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      return x * 2;
    },
    async broken() {
      throw new Error('down');
    },
  };
  const timed = timeCalls(target, (method, seconds) => seen.push([method, seconds]));
  t.is(timed.name, 'store');
  t.is(await timed.slow(21), 42);
  await t.throwsAsync(timed.broken(), { message: 'down' });
  t.deepEqual(
    seen.map(([method]) => method),
    ['slow', 'broken'],
  );
  t.true(seen[0]![1] >= 0.015, `${seen[0]![1]} s`);
});

test('a method that answers at once still answers at once, its value as it is', (t) => {
  const seen: string[] = [];
  const timed = timeCalls({ count: (n: number) => n + 1 }, (method) => seen.push(method));
  t.is(timed.count(1), 2);
  t.deepEqual(seen, ['count']);
});
