/**
 * Everything one widget starts (listeners, requests, event streams, timers) hangs off a Lifetime,
 * so that ending it, on `destroy` or when the widget is set up again, leaves nothing running.
 * Listeners and fetches take its `signal`; timers go through it. A child ends with its parent and
 * can end earlier on its own (a conversation's event stream, dropped on re-initialisation).
 */
export interface Lifetime {
  readonly signal: AbortSignal;
  /** A timer that `end()` clears; nothing is scheduled once ended. */
  setTimeout(callback: () => void, ms: number): void;
  /** Resolves after `ms`; never, once ended (whoever waits is abandoned with the lifetime). */
  delay(ms: number): Promise<void>;
  child(): Lifetime;
  end(): void;
}

export function createLifetime(parent?: AbortSignal): Lifetime {
  const controller = new AbortController();
  const { signal } = controller;
  const timers = new Set<number>();
  const end = () => controller.abort();

  // AbortSignal.any() would do this, but only from Chrome 116 and Safari 17.4.
  parent?.addEventListener('abort', end, { signal });
  if (parent?.aborted) end();
  signal.addEventListener('abort', () => timers.forEach(clearTimeout), { once: true });

  const schedule = (callback: () => void, ms: number) => {
    if (signal.aborted) return;
    const timer = setTimeout(() => {
      timers.delete(timer);
      callback();
    }, ms);
    timers.add(timer);
  };

  return {
    signal,
    setTimeout: schedule,
    delay: (ms) => new Promise((resolve) => schedule(resolve, ms)),
    child: () => createLifetime(signal),
    end,
  };
}
