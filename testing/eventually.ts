/**
 * Reads `read()` until `done` says its value is the one awaited, or `timeoutMs` passes; returns the
 * last value either way, for the test to assert on. For state that settles asynchronously.
 */
export async function eventually<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  options: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 15_000);
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 100));
  }
}
