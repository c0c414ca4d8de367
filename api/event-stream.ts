import { PassThrough } from 'node:stream';
import type { Context } from 'koa';

export interface EventStream {
  /** Writes one event; ignored once the stream has ended. */
  send(event: string, data: unknown, id?: string | null): void;
  end(): void;
  readonly ended: boolean;
  /** Runs once, when the stream ends for either side (the client left, or `end()`). */
  onEnd(callback: () => void): void;
}

const keepAliveMs = 15_000;
/** How long an EventSource waits before it reconnects. */
const retryMs = 3_000;

/**
 * A server-sent-events response. Events written before the handler returns are buffered and sent
 * as soon as Koa starts the response; the stream stays open until `end()` or the client leaves,
 * with a comment line every 15 s so proxies keep it open.
 */
export function openEventStream(ctx: Context): EventStream {
  const body = new PassThrough();
  const callbacks: Array<() => void> = [];
  let ended = false;

  const finish = () => {
    if (ended) return;
    ended = true;
    clearInterval(keepAlive);
    body.end();
    for (const callback of callbacks.splice(0)) callback();
  };
  const keepAlive = setInterval(() => body.write(': keep-alive\n\n'), keepAliveMs);
  ctx.req.on('close', finish);
  ctx.req.socket.setTimeout(0);
  ctx.req.socket.setNoDelay(true);

  ctx.status = 200;
  ctx.type = 'text/event-stream';
  ctx.set({ 'Cache-Control': 'no-cache, no-transform', 'X-Accel-Buffering': 'no', Connection: 'keep-alive' });
  ctx.body = body;
  // Something to send at once, so the response (and its headers) starts before the first event.
  body.write(`retry: ${retryMs}\n\n`);

  return {
    send(event, data, id) {
      if (ended) return;
      body.write(`${id ? `id: ${id}\n` : ''}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    },
    end: finish,
    get ended() {
      return ended;
    },
    onEnd(callback) {
      if (ended) callback();
      else callbacks.push(callback);
    },
  };
}
