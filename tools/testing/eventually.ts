import { inspect } from 'node:util';
import { poll } from '#platform/poll.js';

/**
 * Reads `read()` until `done` says its value is the one awaited and returns that value; throws if
 * `timeoutMs` passes first, naming the last value read, so a wait for a state that never comes fails
 * the test instead of handing it a value it may not assert on. For state that settles asynchronously.
 */
export async function eventually<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  options: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<T> {
  const timeoutMs = options.timeoutMs ?? 15_000;
  let reached = false;
  const last = await poll(read, (value) => (reached = done(value)), {
    timeoutMs,
    intervalMs: options.intervalMs ?? 100,
  });
  if (!reached) throw new Error(`eventually: not done after ${timeoutMs} ms; last value read: ${rendering(last)}`);
  return last;
}

/**
 * Reads `read()` every `intervalMs` for `forMs` and returns the last value, if `holds` said yes to each
 * value read; throws at the first it says no to. For what must NOT happen within a window (a negative
 * wait: "nothing arrives within a second"), where `eventually` would be the wrong tool.
 */
export async function stillAfter<T>(
  read: () => Promise<T>,
  holds: (value: T) => boolean,
  { forMs, intervalMs = 100 }: { forMs: number; intervalMs?: number },
): Promise<T> {
  let broken = false;
  const last = await poll(read, (value) => (broken = !holds(value)), { timeoutMs: forMs, intervalMs });
  if (broken) throw new Error(`stillAfter: stopped holding within ${forMs} ms; value read: ${rendering(last)}`);
  return last;
}

/** A one-line rendering of `value`, cut to a length an error message can carry. */
function rendering(value: unknown, limit = 600): string {
  const text = inspect(value, { depth: 4, breakLength: Infinity, maxArrayLength: 20, maxStringLength: 200 });
  return text.length > limit ? `${text.slice(0, limit)}…` : text;
}
