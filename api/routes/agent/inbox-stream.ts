import type { EventStream } from '#api/server-sent-events.js';

/**
 * Keeps an open inbox page current: reads the list every `intervalMs` and sends it as an `inbox`
 * event when it differs from the last one sent (the first read is always sent). Polling the records
 * is simpler than merging every conversation's events, and a few seconds late is fine for a queue of
 * people waiting. A read that fails is skipped (the next one retries); reads never overlap. The timer
 * stops when the stream ends. `refresh` reads it at once.
 */
export function sendInboxUpdates(
  stream: EventStream,
  read: () => Promise<unknown>,
  options: { intervalMs: number; onError?: (error: unknown) => void },
): { refresh(): void } {
  let last: string | undefined;
  let reading = false;

  const tick = async () => {
    if (reading || stream.ended) return;
    reading = true;
    try {
      const conversations = await read();
      const json = JSON.stringify(conversations);
      if (json !== last) {
        last = json;
        stream.send('inbox', { conversations });
      }
    } catch (error) {
      options.onError?.(error);
    } finally {
      reading = false;
    }
  };

  const timer = setInterval(() => void tick(), options.intervalMs);
  stream.onEnd(() => clearInterval(timer));
  void tick();
  // A change told at once (an assignment) is read now rather than at the next tick; a read under way takes it in, or the next tick does.
  return { refresh: () => void tick() };
}
