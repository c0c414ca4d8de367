import { PassThrough } from 'node:stream';
import type { Context } from 'koa';
import type { ConversationEvent, DeliveredEvent, EventFollower } from '#conversations/events.js';
import { rateLimited } from './errors.js';

export interface EventStream {
  /** Writes one event; ignored once the stream has ended. */
  send(event: string, data: unknown, id?: string | null): void;
  /** Starts the response: events sent before are buffered until then. */
  start(): void;
  end(): void;
  readonly ended: boolean;
  /** Runs once, when the stream ends for either side (the client left, `end()`, or a limit); at once if it has. */
  onEnd(callback: () => void): void;
}

/** A group of streams that may hold at most `max` open at once (a conversation's, an address's, a user's). */
export interface StreamCap {
  key: string;
  max: number;
  /** Who the cap is for, as the 429 names it. */
  subject: string;
}

export interface EventStreamSettings {
  /** Every stream ends after this long; clients reconnect (with `Last-Event-ID`) and go on. */
  maxLifetimeMs: number;
  /** A reader that leaves more than this buffered on our side... */
  slowReaderBytes: number;
  /** ...for longer than this is dropped. */
  slowReaderMs: number;
  keepAliveMs?: number;
}

/** Checks, every `intervalMs`, that the stream's caller may still follow it; a `false` ends the stream. */
export interface StreamRecheck {
  intervalMs: number;
  stillAllowed(): Promise<boolean>;
}

/** How long an EventSource waits before it reconnects. */
const retryMs = 3_000;
/** What a client over a cap is told to wait: one reconnection's time, in seconds. */
const retryAfterSeconds = Math.ceil(retryMs / 1000);

/**
 * The server-sent-events responses of one process, and what bounds them: caps per group (429 when
 * a group is full), a maximum lifetime, a slow reader dropped, and (for user streams) a periodic
 * re-check of the credential. `size` is how many are open: each holds timers and, through its
 * `onEnd` callbacks, subscriptions and pollers, so it returns to zero when every client has gone.
 */
export function createEventStreams(settings: EventStreamSettings) {
  const open = new Set<EventStream>();
  /** How each open stream is told to reconnect elsewhere: at once once started, else as it starts. */
  const goAway = new Map<EventStream, () => void>();
  let draining = false;
  const counts = new Map<string, number>();
  const keepAliveMs = settings.keepAliveMs ?? 15_000;

  const take = (caps: StreamCap[]) => {
    const full = caps.find((cap) => (counts.get(cap.key) ?? 0) >= cap.max);
    if (full) throw rateLimited(retryAfterSeconds, `${full.subject}: at most ${full.max} open event streams`, 'event-streams');
    for (const cap of caps) counts.set(cap.key, (counts.get(cap.key) ?? 0) + 1);
  };
  const release = (caps: StreamCap[]) => {
    for (const cap of caps) {
      const left = (counts.get(cap.key) ?? 1) - 1;
      if (left > 0) counts.set(cap.key, left);
      else counts.delete(cap.key);
    }
  };

  return {
    /**
     * Opens a stream for this request: call it before following anything, as its `onEnd` is what
     * stops the following. A client already gone gets a stream that has ended (its `onEnd`
     * callbacks run at once); a full group is 429. The response starts with `start()`.
     */
    open(ctx: Context, caps: StreamCap[] = [], recheck?: StreamRecheck): EventStream {
      const body = new PassThrough();
      const callbacks: Array<() => void> = [];
      const timers: Array<ReturnType<typeof setInterval>> = [];
      let ended = false;
      let started = false;
      let slowSince: number | undefined;

      const finish = () => {
        if (ended) return;
        ended = true;
        open.delete(stream);
        goAway.delete(stream);
        release(caps);
        timers.forEach(clearInterval);
        ctx.res.off('close', finish);
        body.end();
        for (const callback of callbacks.splice(0)) callback();
      };
      // Drops a reader that has let too much pile up for too long, rather than buffering without end.
      const write = (text: string) => {
        if (ended) return;
        body.write(text);
        const buffered = body.writableLength + body.readableLength + ctx.res.writableLength;
        if (buffered <= settings.slowReaderBytes) slowSince = undefined;
        else if (slowSince === undefined) slowSince = Date.now();
        else if (Date.now() - slowSince >= settings.slowReaderMs) {
          finish();
          ctx.res.destroy();
        }
      };

      const stream: EventStream = {
        send(event, data, id) {
          write(`${id ? `id: ${id}\n` : ''}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
        },
        start() {
          if (ended || started) return;
          started = true;
          // Draining: what the route sends as it starts (`accepted`) goes first, then the hint.
          if (draining) setImmediate(reconnectElsewhere);
          ctx.req.socket.setTimeout(0);
          ctx.req.socket.setNoDelay(true);
          ctx.status = 200;
          ctx.type = 'text/event-stream';
          ctx.set({ 'Cache-Control': 'no-cache, no-transform', 'X-Accel-Buffering': 'no', Connection: 'keep-alive' });
          ctx.body = body;
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

      // The client may have left while the route awaited (authentication, Redis): nothing to start then.
      // (Not `req.destroyed`: a request whose body has been read is destroyed, its client still there.)
      if (ctx.res.destroyed || ctx.res.writableEnded || ctx.req.socket.destroyed) {
        ended = true;
        return stream;
      }
      take(caps);
      open.add(stream);
      const reconnectElsewhere = () => {
        write(`retry: ${retryMs}\n\n`);
        stream.send('reconnect', { reason: 'shutting_down', retryMs });
        finish();
      };
      goAway.set(stream, () => started && reconnectElsewhere());
      // `res` closes when the client leaves at any point, and also once any other answer (an error) is
      // sent. Not `req`'s close: that comes once its body has been read.
      ctx.res.on('close', finish);
      // Something to send at once, so the response (and its headers) starts before the first event.
      body.write(`retry: ${retryMs}\n\n`);
      timers.push(setInterval(() => write(': keep-alive\n\n'), keepAliveMs));
      timers.push(setTimeout(finish, settings.maxLifetimeMs));
      if (recheck) {
        let checking = false;
        timers.push(
          setInterval(() => {
            if (checking) return;
            checking = true;
            recheck
              .stillAllowed()
              .then((allowed) => allowed || finish())
              // A failed check (Redis away) decides nothing: the next one asks again.
              .catch(() => undefined)
              .finally(() => (checking = false));
          }, recheck.intervalMs),
        );
      }
      return stream;
    },

    /**
     * For a process that stops: every open stream, and every one opened from now on, ends with a
     * reconnect hint (the `retry` field and a final `reconnect` event), so its client comes back to
     * another process and resumes with `Last-Event-ID`. A stream whose route has not started it yet
     * ends just after it starts. Answers how many streams were open.
     */
    reconnectAll(): number {
      draining = true;
      const count = open.size;
      for (const tell of [...goAway.values()]) tell();
      return count;
    },

    /** Streams open now. */
    get size() {
      return open.size;
    },
  };
}

export type EventStreams = ReturnType<typeof createEventStreams>;

/**
 * A conversation's events on `stream`, none lost to what the route does before the stream starts:
 * follows the conversation first (holding the events it `picks`), then runs `act` (sending the
 * message, reading the snapshot), then starts the stream with the events `act` answers, then those
 * held, then each as it comes, until the one it `endsWith`. The following stops when the stream ends;
 * when `act` throws it stops at once, and the error goes on with the stream never started.
 */
export async function followThenAct(
  stream: EventStream,
  following: {
    follower: Pick<EventFollower, 'follow'>;
    conversationId: string;
    /** A durable event's id to resume after, or `now`. */
    after: string | 'now';
    picks(event: ConversationEvent): boolean;
    /** Each event sent with its stream id (durable events have one), for `Last-Event-ID`. */
    withIds: boolean;
    endsWith?: ConversationEvent['type'];
  },
  act: () => Promise<Array<{ event: string; data: unknown }>>,
): Promise<void> {
  const held: DeliveredEvent[] = [];
  let started = false;
  const relay = ({ id, event }: DeliveredEvent) => {
    const { type, ...data } = event;
    stream.send(type, data, following.withIds ? id : undefined);
    if (type === following.endsWith) stream.end();
  };
  const followed = await following.follower.follow(
    following.conversationId,
    following.after,
    (delivered) => {
      if (!following.picks(delivered.event)) return;
      if (started) relay(delivered);
      else held.push(delivered);
    },
    stream.end,
  );
  stream.onEnd(() => void followed.stop());
  let first: Array<{ event: string; data: unknown }>;
  try {
    first = await act();
  } catch (error) {
    await followed.stop();
    throw error;
  }
  stream.start();
  started = true;
  for (const { event, data } of first) stream.send(event, data);
  held.splice(0).forEach(relay);
}
