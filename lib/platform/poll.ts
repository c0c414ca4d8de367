import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Reads `read()` until `done` says its value is the one awaited or `timeoutMs` has passed, waiting
 * `intervalMs` between reads; returns the last value either way, so that the caller says what a
 * timeout means: a start-up or a measurement throws, and so does a test's `tools/testing/eventually.ts`. The one polling
 * loop of the tests, the benchmarks and the local stack (which is why it lives here and not in
 * `tools/testing/`: `deploy/local/` must not import test code), and of the service's own short waits (a copy of a
 * messaging delivery waiting for another taking the same message in).
 */
export async function poll<T>(
  read: () => T | Promise<T>,
  done: (value: T) => boolean,
  { timeoutMs, intervalMs }: { timeoutMs: number; intervalMs: number },
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await sleep(intervalMs);
  }
}
