import { randomUUID } from 'node:crypto';
import { tagUnavailable } from '#platform/dependency-errors.js';
import type { RedisClient } from '#platform/redis.js';
import type { DeliveryProblem, EventPublisher, MessageDelivery } from '#conversations/events.js';
import { statusRank, type DeliveryStatus } from './webhook-payload.js';

/** The platform re-delivers for up to 7 days: a message id is remembered a little longer. */
const seenTtlSeconds = 8 * 24 * 3600;
/** Statuses of what we sent arrive within days; the id of a sent message is kept for a month. */
const sentTtlSeconds = 30 * 24 * 3600;
/** The customer-service window: free-form messages only within 24 hours of the customer's last one. */
export const serviceWindowMs = 24 * 3600 * 1000;

/** A message id being taken in by one delivery: how long a racing copy waits for it to end. */
const takingInMs = 30_000;

/** What a platform message id of ours points at (`sent:<id>`). */
interface SentRecord {
  conversationId: string;
  messageId: string;
  /** The connection it went out through: the only one whose statuses count for it. */
  connectionId: string;
}

/** What became of one message of ours on the channel. */
export interface Delivery {
  /** The platform's ids of the message (a long answer goes out in parts). */
  platformIds: string[];
  status: DeliveryStatus | 'failed';
  problem?: DeliveryProblem;
}

/**
 * The messaging channel's own state in Redis, beside the conversation records: which conversation
 * each customer of a connection is in, which platform message ids were taken in already (deliveries
 * are at least once), when the customer last wrote (the 24-hour window), and what became of each
 * message sent to them (statuses arrive later, in any order). A message's delivery moving on is
 * published to the conversation's followers through `events`.
 */
export function createChannelState(redis: RedisClient, prefix: string, events: Pick<EventPublisher, 'publish'>) {
  const keys = {
    customer: (connectionId: string, customer: string) => `${prefix}:messaging:customer:${connectionId}:${customer}`,
    seen: (connectionId: string, platformId: string) => `${prefix}:messaging:seen:${connectionId}:${platformId}`,
    conversation: (conversationId: string) => `${prefix}:messaging:conversation:${conversationId}`,
    sent: (platformId: string) => `${prefix}:messaging:sent:${platformId}`,
    delivering: (conversationId: string) => `${prefix}:messaging:delivering:${conversationId}`,
  };
  /** A part of a message sent already, by its index (the hash field holds the platform's id of it). */
  const partField = (messageId: string, index: number) => `part:${messageId}:${index}`;

  async function deliveryOf(conversationId: string, messageId: string): Promise<Delivery | undefined> {
    const value = await redis.hGet(keys.conversation(conversationId), `delivery:${messageId}`);
    return value ? (JSON.parse(value) as Delivery) : undefined;
  }

  /**
   * The message will not reach the customer (whole; `partsSent`, the platform's ids of any parts that
   * went out before it failed); the conversation shows agents why.
   */
  async function recordFailed(
    conversationId: string,
    messageId: string,
    problem: DeliveryProblem,
    partsSent: string[] = [],
  ): Promise<void> {
    const previous = await deliveryOf(conversationId, messageId);
    const delivery: Delivery = { platformIds: previous?.platformIds ?? partsSent, status: 'failed', problem };
    await redis.hSet(keys.conversation(conversationId), {
      [`delivery:${messageId}`]: JSON.stringify(delivery),
      problem: JSON.stringify(problem),
    });
    await announceDelivery(conversationId, messageId, delivery);
  }

  /** Followers of the conversation (the agent inbox) see the message's delivery move. */
  async function announceDelivery(conversationId: string, messageId: string, delivery: Delivery): Promise<void> {
    await events.publish(conversationId, { type: 'delivery', messageId, delivery: presentDelivery(delivery) });
  }

  return tagUnavailable('redis', {
    async conversationOf(connectionId: string, customer: string): Promise<string | undefined> {
      return (await redis.get(keys.customer(connectionId, customer))) ?? undefined;
    },

    /**
     * Makes `candidate` the customer's conversation if it still is `previous` (none, or one that
     * has closed); answers the one that won, so two deliveries racing for a new customer agree.
     */
    async claimConversation(connectionId: string, customer: string, candidate: string, previous?: string): Promise<string> {
      const won = await redis.eval(
        `local current = redis.call('GET', KEYS[1])
         if current == false or current == ARGV[2] then redis.call('SET', KEYS[1], ARGV[1]) return ARGV[1] end
         return current`,
        { keys: [keys.customer(connectionId, customer)], arguments: [candidate, previous ?? ''] },
      );
      return String(won);
    },

    async wasTakenIn(connectionId: string, platformId: string): Promise<boolean> {
      return (await redis.get(keys.seen(connectionId, platformId))) === '1';
    },

    /**
     * One delivery's claim on taking a message in, so that two copies arriving at once agree on
     * which is the duplicate: `claimed` (this copy takes it in, then `markTakenIn` or
     * `releaseTakingIn`), `taken` (it was taken in before), or `pending` (another copy is taking it
     * in now). A claim whose delivery died lapses after `takingInMs`.
     */
    async claimTakingIn(connectionId: string, platformId: string): Promise<'claimed' | 'taken' | 'pending'> {
      const won = await redis.set(keys.seen(connectionId, platformId), 'pending', { NX: true, PX: takingInMs });
      if (won === 'OK') return 'claimed';
      return (await redis.get(keys.seen(connectionId, platformId))) === '1' ? 'taken' : 'pending';
    },

    /** The copy that claimed the message could not take it in: the next copy may. */
    async releaseTakingIn(connectionId: string, platformId: string): Promise<void> {
      await redis.eval(`if redis.call('GET', KEYS[1]) == 'pending' then return redis.call('DEL', KEYS[1]) end return 0`, {
        keys: [keys.seen(connectionId, platformId)],
        arguments: [],
      });
    },

    /** Marked once the message is durably with its conversation, never before. */
    async markTakenIn(connectionId: string, platformId: string): Promise<void> {
      await redis.set(keys.seen(connectionId, platformId), '1', { EX: seenTtlSeconds });
    },

    /**
     * The customer wrote at `at` (the platform's time): the window runs 24 hours from the latest.
     * With `messageId` (a message, not a reaction), it is the latest customer message when it is the newest:
     * what an agent's reply answers and marks read.
     */
    async noteCustomerMessage(conversationId: string, at: Date, messageId?: string): Promise<void> {
      await redis.eval(
        `local current = tonumber(redis.call('HGET', KEYS[1], 'lastCustomerMessageAt') or '0')
         if tonumber(ARGV[1]) >= current and ARGV[2] ~= '' then redis.call('HSET', KEYS[1], 'lastCustomerMessageId', ARGV[2]) end
         if tonumber(ARGV[1]) > current then redis.call('HSET', KEYS[1], 'lastCustomerMessageAt', ARGV[1]) end`,
        { keys: [keys.conversation(conversationId)], arguments: [String(at.getTime()), messageId ?? ''] },
      );
    },

    /** The platform id of the customer's latest message, if any. */
    async lastCustomerMessageId(conversationId: string): Promise<string | undefined> {
      return (await redis.hGet(keys.conversation(conversationId), 'lastCustomerMessageId')) ?? undefined;
    },

    /**
     * Until when free-form messages may be sent; undefined when the customer never wrote. 24 hours
     * from the customer's latest message, unless the platform refused a message for the closed window
     * since (`closeWindow`): then until that refusal, until the customer writes again.
     */
    async windowOpenUntil(conversationId: string): Promise<Date | undefined> {
      const [last, closedFor, closedAt] = await redis.hmGet(keys.conversation(conversationId), [
        'lastCustomerMessageAt',
        'windowClosedFor',
        'windowClosedAt',
      ]);
      if (!last) return undefined;
      const until = Number(last) + serviceWindowMs;
      return new Date(closedFor === last && closedAt ? Math.min(until, Number(closedAt)) : until);
    },

    /**
     * The platform refused a message at `at` because the window had closed (131047, at once or in a
     * `failed` status): its clock is the truth, so the window counts as closed whatever ours says,
     * until the customer writes again (a newer `noteCustomerMessage`). A refusal no later than the
     * customer's latest message is about an older window and changes nothing.
     */
    async closeWindow(conversationId: string, at: Date): Promise<void> {
      await redis.eval(
        `local last = redis.call('HGET', KEYS[1], 'lastCustomerMessageAt')
         if not last or tonumber(ARGV[1]) <= tonumber(last) then return 0 end
         if redis.call('HGET', KEYS[1], 'windowClosedFor') == last then
           local closedAt = tonumber(redis.call('HGET', KEYS[1], 'windowClosedAt') or ARGV[1])
           if closedAt <= tonumber(ARGV[1]) then return 0 end
         end
         redis.call('HSET', KEYS[1], 'windowClosedFor', last, 'windowClosedAt', ARGV[1])
         return 1`,
        { keys: [keys.conversation(conversationId)], arguments: [String(at.getTime())] },
      );
    },

    deliveryOf,

    /** How far each of these messages got, as agents see it; messages never handed to the platform are absent. */
    async deliveriesOf(conversationId: string, messageIds: string[]): Promise<Map<string, MessageDelivery>> {
      if (messageIds.length === 0) return new Map();
      const values = await redis.hmGet(
        keys.conversation(conversationId),
        messageIds.map((id) => `delivery:${id}`),
      );
      const found = new Map<string, MessageDelivery>();
      values.forEach((value, index) => {
        if (value) found.set(messageIds[index]!, presentDelivery(JSON.parse(value) as Delivery));
      });
      return found;
    },

    /**
     * The platform's ids of the parts of a message (of `count` parts) sent already, by index, empty
     * where a part has not gone out: a run that stopped half-way (throttled, out of time) is taken
     * up by the next, which sends only what is missing.
     */
    async partsSent(conversationId: string, messageId: string, count: number): Promise<Array<string | undefined>> {
      const fields = Array.from({ length: count }, (_, index) => partField(messageId, index));
      const values = await redis.hmGet(keys.conversation(conversationId), fields);
      return values.map((value) => value ?? undefined);
    },

    /**
     * One part of a message went out, through `connectionId`, as `platformId`: recorded the moment the
     * platform answered, before the next part is sent, with its statuses' look-up.
     */
    async recordPartSent(
      conversationId: string,
      messageId: string,
      part: { index: number; platformId: string; connectionId: string },
    ): Promise<void> {
      const sent: SentRecord = { conversationId, messageId, connectionId: part.connectionId };
      await redis
        .multi()
        .hSet(keys.conversation(conversationId), partField(messageId, part.index), part.platformId)
        .set(keys.sent(part.platformId), JSON.stringify(sent), { EX: sentTtlSeconds })
        .exec();
    },

    /**
     * Every part of the message went out through `connectionId` (each recorded by `recordPartSent`):
     * it counts as sent; only statuses delivered to that connection count for it.
     */
    async recordSent(conversationId: string, messageId: string, platformIds: string[], connectionId: string): Promise<void> {
      const delivery: Delivery = { platformIds, status: 'sent' };
      const multi = redis.multi().hSet(keys.conversation(conversationId), `delivery:${messageId}`, JSON.stringify(delivery));
      const sent: SentRecord = { conversationId, messageId, connectionId };
      for (const platformId of platformIds) multi.set(keys.sent(platformId), JSON.stringify(sent), { EX: sentTtlSeconds });
      multi.hDel(
        keys.conversation(conversationId),
        platformIds.map((_, index) => partField(messageId, index)),
      );
      await multi.exec();
      await announceDelivery(conversationId, messageId, delivery);
    },

    /**
     * Where the conversation's delivery stands: the transcript position before which every message is
     * delivered or failed for good, so a run reads only what follows (0 before the first run).
     */
    async deliveryCursor(conversationId: string): Promise<number> {
      return Number((await redis.hGet(keys.conversation(conversationId), 'deliveryCursor')) ?? 0);
    },

    /** Moves the cursor forward to `position`; never back (a slower run's older view does not undo a newer one). */
    async advanceDeliveryCursor(conversationId: string, position: number): Promise<void> {
      await redis.eval(
        `local current = tonumber(redis.call('HGET', KEYS[1], 'deliveryCursor') or '0')
         if tonumber(ARGV[1]) > current then redis.call('HSET', KEYS[1], 'deliveryCursor', ARGV[1]) end`,
        { keys: [keys.conversation(conversationId)], arguments: [String(position)] },
      );
    },

    /**
     * Claims the conversation's delivery for one run, for `ttlMs` at most (the run's timeout): answers
     * the claim's token, or undefined when another run holds it. Two runs never send at once, so they
     * never both send a part; a run that died leaves a claim that expires with its timeout.
     */
    async claimDelivery(conversationId: string, ttlMs: number): Promise<string | undefined> {
      const token = randomUUID();
      const won = await redis.set(keys.delivering(conversationId), token, { NX: true, PX: Math.max(1, Math.ceil(ttlMs)) });
      return won === 'OK' ? token : undefined;
    },

    /** True while the claim is still this run's (checked before each send: a run frozen past its claim stops). */
    async holdsDelivery(conversationId: string, token: string): Promise<boolean> {
      return (await redis.get(keys.delivering(conversationId))) === token;
    },

    /** Gives the claim up, if it still is this run's. */
    async releaseDelivery(conversationId: string, token: string): Promise<void> {
      await redis.eval(`if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`, {
        keys: [keys.delivering(conversationId)],
        arguments: [token],
      });
    },

    recordFailed,

    /** The latest problem of the conversation's deliveries, for the agent inbox. */
    async problemOf(conversationId: string): Promise<DeliveryProblem | undefined> {
      const value = await redis.hGet(keys.conversation(conversationId), 'problem');
      return value ? (JSON.parse(value) as DeliveryProblem) : undefined;
    },

    /**
     * A status the platform reported, through `connectionId`'s webhook, for one of our messages: kept
     * only if it moves the message on (statuses come duplicated and out of order; the move is one
     * atomic step, so two statuses arriving at once cannot take it backwards). Unknown ids (not
     * ours, or long gone) are ignored, and so are ids sent through another connection: a tenant signs
     * its own connection's deliveries, and must not reach another's messages by naming their ids.
     * Answers the message and its new delivery when it moved (followers are told), else undefined.
     */
    async applyStatus(
      connectionId: string,
      platformId: string,
      status: DeliveryStatus,
      problem?: DeliveryProblem,
    ): Promise<MovedDelivery | undefined> {
      const value = await redis.get(keys.sent(platformId));
      if (!value) return undefined;
      const sent = JSON.parse(value) as Partial<SentRecord>;
      // Records from before the connection was kept with them name none: they are ignored too.
      if (sent.connectionId !== connectionId || !sent.conversationId || !sent.messageId) return undefined;
      const { conversationId, messageId } = sent;
      const failure = status === 'failed' ? (problem ?? unknownProblem()) : undefined;
      const moved = await redis.eval(moveDeliveryScript, {
        keys: [keys.conversation(conversationId)],
        arguments: [`delivery:${messageId}`, status, JSON.stringify(statusRank), failure ? JSON.stringify(failure) : ''],
      });
      if (typeof moved !== 'string') return undefined;
      const delivery = JSON.parse(moved) as Delivery;
      await announceDelivery(conversationId, messageId, delivery);
      return { conversationId, messageId, delivery };
    },
  });
}

export type ChannelState = ReturnType<typeof createChannelState>;

/** A message whose delivery a status moved on. */
export interface MovedDelivery {
  conversationId: string;
  messageId: string;
  delivery: Delivery;
}

/**
 * Moves a message's delivery to the status ARGV[2] if that ranks higher (ranks in ARGV[3]); a
 * failure (ARGV[4], its problem) is also the conversation's latest problem. Answers the new delivery
 * as JSON, or nil when nothing moved (no delivery recorded yet, already failed, not higher).
 */
const moveDeliveryScript = `
local current = redis.call('HGET', KEYS[1], ARGV[1])
if not current then return nil end
local delivery = cjson.decode(current)
if delivery.status == 'failed' then return nil end
local ranks = cjson.decode(ARGV[3])
if ranks[ARGV[2]] <= ranks[delivery.status] then return nil end
delivery.status = ARGV[2]
if ARGV[4] ~= '' then
  delivery.problem = cjson.decode(ARGV[4])
  redis.call('HSET', KEYS[1], 'problem', ARGV[4])
end
local encoded = cjson.encode(delivery)
redis.call('HSET', KEYS[1], ARGV[1], encoded)
return encoded`;

export function presentDelivery(delivery: Delivery): MessageDelivery {
  return { status: delivery.status, ...(delivery.problem ? { error: delivery.problem } : {}) };
}

function unknownProblem(): DeliveryProblem {
  return { code: 'failed', message: 'The platform reported the message as not delivered.', at: new Date().toISOString() };
}
