import type { Citation } from '#answering/types.js';
import { asUnavailable, tagUnavailable } from '#platform/dependency-errors.js';
import type { RedisClient } from '#platform/redis.js';
import type { ClosedBy, ConversationStatus } from '#workflows/conversations/types.js';
import type { ChatMessage } from './chat-message.js';
import { conversationKeys } from './redis-keys.js';

/** What happens in a conversation, as the chat API streams it. */
export type ConversationEvent =
  | { type: 'message'; message: ChatMessage }
  | {
      type: 'status';
      status: ConversationStatus;
      agentName: string | null;
      /** On closing: who closed it (the widget asks for a score when an agent did). */
      closedBy?: ClosedBy;
    }
  | { type: 'token'; replyTo: string; delta: string }
  | { type: 'reset'; replyTo: string }
  | { type: 'citations'; replyTo: string; citations: Citation[] }
  | { type: 'done'; replyTo: string; message: ChatMessage | null; status: ConversationStatus }
  /** Messaging channel: one of our messages got further (sent, delivered, read) or failed; forward only. */
  | { type: 'delivery'; messageId: string; delivery: MessageDelivery };

/** Messaging channel: how far one of our messages got, as agents see it, and why it failed. */
export interface MessageDelivery {
  status: 'sent' | 'delivered' | 'read' | 'failed';
  error?: DeliveryProblem;
}

/** Why a message did not reach the customer, as agents see it. */
export interface DeliveryProblem {
  /** Ours: `window_closed`, `recipient_unavailable`, `token_invalid`, … (`lib/messaging/graph-errors.ts`). */
  code: string;
  message: string;
  at: string;
  /**
   * The platform's own error number and title (131026, "Message undeliverable"), which its
   * documentation is indexed by, when the platform gave them; problems stored before have none.
   */
  platformCode?: number;
  platformTitle?: string;
}

/** An event as delivered: durable events carry their stream id (the SSE `id`), tokens carry none. */
export interface DeliveredEvent {
  id: string | null;
  event: ConversationEvent;
}

/** Tokens are for whoever watches right now; everything else is kept, so a follower can resume. */
const durableTypes = new Set<ConversationEvent['type']>(['message', 'status', 'done', 'delivery']);

/** Durable events kept per conversation (Redis trims approximately, keeping at least this many). */
const keptEvents = 1_000;

/**
 * Publishes conversation events: durable ones into a Redis stream per conversation (so a follower
 * can resume from the last id it saw), then every event on a Pub/Sub channel for live followers.
 */
export function createEventPublisher(redis: RedisClient, prefix: string) {
  const keys = conversationKeys(prefix);
  return tagUnavailable('redis', {
    async publish(conversationId: string, event: ConversationEvent): Promise<void> {
      const id = durableTypes.has(event.type)
        ? await redis.xAdd(
            keys.events(conversationId),
            '*',
            { event: JSON.stringify(event) },
            { TRIM: { strategy: 'MAXLEN', strategyModifier: '~', threshold: keptEvents } },
          )
        : null;
      await redis.publish(keys.live(conversationId), JSON.stringify({ id, event } satisfies DeliveredEvent));
    },
  });
}

export type EventPublisher = ReturnType<typeof createEventPublisher>;

export interface Following {
  stop(): Promise<void>;
}

/** What the follower keeps of each following, to catch it up after the subscriber reconnects. */
interface Follow {
  catchUp(): void;
}

/**
 * Follows a conversation's events: subscribes first, then replays the durable events after `after`
 * (a stream id; `now` replays nothing), then passes on live events, each durable one exactly once and
 * in order. `subscriber` is a connection of its own in subscriber mode, shared by every follower of
 * the process. When it reconnects (it resubscribes by itself), every following re-reads the stream
 * from the last id it passed on, as what was published in the gap reached nobody; one that cannot
 * is `lost` (its stream should end, so that its client resumes). `size` is how many followings are open.
 */
export function createEventFollower(redis: RedisClient, subscriber: RedisClient, prefix: string) {
  const keys = conversationKeys(prefix);
  const follows = new Set<Follow>();

  // Once both connections are back (either may return last), whatever the gap held is read again.
  const catchUpAll = () => {
    if (redis.isReady && subscriber.isReady) for (const follow of follows) follow.catchUp();
  };
  subscriber.on('ready', catchUpAll);
  redis.on('ready', catchUpAll);

  return {
    async follow(
      conversationId: string,
      after: string | 'now',
      deliver: (delivered: DeliveredEvent) => void,
      lost: () => void = () => undefined,
    ): Promise<Following> {
      let lastId = '0-0';
      let buffered: DeliveredEvent[] | null = [];
      const pass = (delivered: DeliveredEvent) => {
        if (delivered.id !== null) {
          if (compareIds(delivered.id, lastId) <= 0) return;
          lastId = delivered.id;
        }
        deliver(delivered);
      };
      const listener = (raw: string) => {
        const delivered = JSON.parse(raw) as DeliveredEvent;
        if (buffered) buffered.push(delivered);
        else pass(delivered);
      };
      /** Live events wait while the stream is read, then go on in order (the ones already read are skipped). */
      const replayAfter = async (id: string) => {
        buffered ??= [];
        try {
          for (const entry of await redis.xRange(keys.events(conversationId), `(${id}`, '+'))
            pass({ id: entry.id, event: JSON.parse(entry.message.event!) as ConversationEvent });
        } finally {
          const backlog = buffered;
          buffered = null;
          backlog.forEach(pass);
        }
      };

      const channel = keys.live(conversationId);
      try {
        await subscriber.subscribe(channel, listener);
        if (after === 'now') {
          const [latest] = await redis.xRevRange(keys.events(conversationId), '+', '-', { COUNT: 1 });
          lastId = latest?.id ?? '0-0';
        } else {
          lastId = after;
          await replayAfter(after);
        }
      } catch (error) {
        await subscriber.unsubscribe(channel, listener).catch(() => undefined);
        throw asUnavailable('redis', error);
      }
      const backlog = buffered ?? [];
      buffered = null;
      backlog.forEach(pass);

      // Catch-ups run one after another: each reads from the last id the one before passed on.
      let catchingUp = Promise.resolve();
      const follow: Follow = {
        catchUp() {
          catchingUp = catchingUp
            .then(() => (follows.has(follow) ? replayAfter(lastId) : undefined))
            .catch(() => {
              void stop();
              lost();
            });
        },
      };
      follows.add(follow);
      const stop = async () => {
        if (!follows.delete(follow)) return;
        await subscriber.unsubscribe(channel, listener).catch(() => undefined);
      };
      return { stop };
    },

    /** Followings open now. */
    get size() {
      return follows.size;
    },
  };
}

export type EventFollower = ReturnType<typeof createEventFollower>;

/** Orders Redis stream ids (`<ms>-<seq>`). */
export function compareIds(a: string, b: string): number {
  const [aMs = 0, aSeq = 0] = a.split('-').map(Number);
  const [bMs = 0, bSeq = 0] = b.split('-').map(Number);
  return aMs - bMs || aSeq - bSeq;
}

/** A valid stream id, as a `Last-Event-ID` header must be to resume from it. */
export function isEventId(value: string): boolean {
  return /^\d{1,20}-\d{1,20}$/.test(value);
}
