import { tagUnavailable } from '#platform/dependency-errors.js';
import type { RedisClient } from '#platform/redis.js';
import { conversationKeys } from './redis-keys.js';

export const availabilities = ['available', 'away', 'offline'] as const;
/** What an agent says of themselves; `offline` too whenever no inbox page of theirs is connected. */
export type Availability = (typeof availabilities)[number];

/** How long a connection counts as present after its page last showed it was there. */
export const presenceMs = 45_000;

/**
 * Agents' availability: what each chose (a hash per tenant; `available` until they say otherwise), and
 * whether an inbox page of theirs is connected (a sorted set per tenant of user ids by when their
 * presence lapses, moved on by each open page's event stream). Only an agent who chose `available` and
 * is present is given conversations automatically; a page that closes stops counting `presenceMs` later.
 */
export function createAvailability(redis: RedisClient, prefix: string, now: () => number = Date.now) {
  const keys = conversationKeys(prefix);
  const chosenKey = (tenantId: string) => `${keys.inbox(tenantId)}:availability`;
  const presenceKey = (tenantId: string) => `${keys.inbox(tenantId)}:presence`;

  /** Each user's availability as the inbox sees it: their choice while present, else `offline`. */
  async function of(tenantId: string, userIds: readonly string[]): Promise<Map<string, Availability>> {
    if (userIds.length === 0) return new Map();
    const [chosen, lapses] = await Promise.all([
      redis.hmGet(chosenKey(tenantId), [...userIds]),
      redis.zmScore(presenceKey(tenantId), [...userIds]),
    ]);
    const at = now();
    return new Map(
      userIds.map((userId, i) => {
        const present = (lapses[i] ?? 0) > at;
        return [userId, present ? ((chosen[i] as Availability | null) ?? 'available') : 'offline'];
      }),
    );
  }

  return tagUnavailable('redis', {
    of,

    /** The user's own choice (shown even while their page is closed). */
    async chosen(tenantId: string, userId: string): Promise<Availability> {
      return ((await redis.hGet(chosenKey(tenantId), userId)) as Availability | null) ?? 'available';
    },

    async choose(tenantId: string, userId: string, availability: Availability): Promise<void> {
      await redis.hSet(chosenKey(tenantId), userId, availability);
    },

    /** An open page of the user's is there: present for `presenceMs` more. */
    async present(tenantId: string, userId: string): Promise<void> {
      await redis.zAdd(presenceKey(tenantId), { score: now() + presenceMs, value: userId }, { GT: true });
    },

    /** Those of `userIds` who are available now, in the order given. */
    async availableAmong(tenantId: string, userIds: readonly string[]): Promise<string[]> {
      const states = await of(tenantId, userIds);
      return userIds.filter((userId) => states.get(userId) === 'available');
    },
  });
}

export type AgentAvailability = ReturnType<typeof createAvailability>;
