import test from 'ava';
import { createHostGates } from './host-gates.js';

/** A clock that moves only when the gates sleep, so the spacing is exact and the test instant. */
function fakeClock() {
  let now = 0;
  return { now: () => now, sleep: async (ms: number) => void (now += ms) };
}

test('requests to one host never exceed its concurrency, and start at least the interval apart', async (t) => {
  const clock = fakeClock();
  const gates = createHostGates({ concurrency: 2, intervalMs: () => 100, ...clock });
  const starts: number[] = [];
  let inFlight = 0;
  let most = 0;
  await Promise.all(
    Array.from({ length: 6 }, () =>
      gates.run('docs.example', async () => {
        starts.push(clock.now());
        inFlight += 1;
        most = Math.max(most, inFlight);
        await new Promise((resolve) => setImmediate(resolve));
        inFlight -= 1;
      }),
    ),
  );
  t.deepEqual(starts, [0, 100, 200, 300, 400, 500]);
  t.true(most <= 2);
  t.is(gates.maxInFlight(), most);
});

test('hosts are gated apart: one slow host does not hold another back', async (t) => {
  const clock = fakeClock();
  const gates = createHostGates({ concurrency: 1, intervalMs: (host) => (host === 'slow.example' ? 10_000 : 0), ...clock });
  const order: string[] = [];
  await Promise.all([
    gates.run('slow.example', async () => void order.push('slow 1')),
    gates.run('slow.example', async () => void order.push('slow 2')),
    gates.run('fast.example', async () => void order.push('fast 1')),
  ]);
  t.is(order.indexOf('fast 1') < order.indexOf('slow 2'), true);
});

test('a failed request frees its slot', async (t) => {
  const gates = createHostGates({ concurrency: 1, intervalMs: () => 0 });
  await t.throwsAsync(
    gates.run('a.example', async () => Promise.reject(new Error('boom'))),
    { message: 'boom' },
  );
  t.is(await gates.run('a.example', async () => 'next'), 'next');
});

test('a timer that fires late lets no two requests out together: the interval holds between actual starts', async (t) => {
  let now = 0;
  // Every sleep overshoots by 250 ms, as timers do on an event loop busy reading pages.
  const gates = createHostGates({
    concurrency: 4,
    intervalMs: () => 100,
    now: () => now,
    sleep: async (ms) => void (now += ms + 250),
  });
  const starts: number[] = [];
  await Promise.all(Array.from({ length: 5 }, () => gates.run('docs.example', async () => void starts.push(now))));
  for (let i = 1; i < starts.length; i++) t.true(starts[i]! - starts[i - 1]! >= 100, JSON.stringify(starts));
});

test("the next step's gates keep their distance from this step's last request", async (t) => {
  let now = 1_000;
  const clock = { now: () => now, sleep: async (ms: number) => void (now += ms) };
  const first = createHostGates({ concurrency: 1, intervalMs: () => 10_000, ...clock });
  await first.run('slow.example', async () => undefined);
  t.deepEqual(first.lastStarts(), { 'slow.example': 1_000 });
  const next = createHostGates({ concurrency: 1, intervalMs: () => 10_000, lastStarts: first.lastStarts(), ...clock });
  await next.run('slow.example', async () => t.is(now, 11_000));
});
