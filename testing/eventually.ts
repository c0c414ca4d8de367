import { poll } from '#platform/poll.js';

/**
 * Reads `read()` until `done` says its value is the one awaited, or `timeoutMs` passes; returns the
 * last value either way, for the test to assert on. For state that settles asynchronously.
 */
export function eventually<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  options: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<T> {
  return poll(read, done, { timeoutMs: options.timeoutMs ?? 15_000, intervalMs: options.intervalMs ?? 100 });
}
