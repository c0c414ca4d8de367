import { createHash } from 'node:crypto';
import { tagUnavailable } from '#platform/dependency-errors.js';
import type { RedisClient } from '#platform/redis.js';
import type { LiveChannels, Listening } from './live-channels.js';
import type { NotePerson, PrivateNote } from './notes.js';

/** Something in the inbox for one user: for now, a colleague mentioned them in a note. */
export interface AgentNotification {
  /** Derived from the note and the user: a note retried notifies no one twice. */
  id: string;
  type: 'mention';
  conversationId: string;
  noteId: string;
  by: NotePerson;
  /** The note's beginning, to show in the list. */
  excerpt: string;
  createdAt: string;
}

export type ListedNotification = AgentNotification & { read: boolean };

/** Notifications kept per user, newest first: older ones drop off. */
export const notificationsKept = 100;
const excerptChars = 200;

export function notificationKeys(prefix: string) {
  return {
    /** Ids by creation time (ms). */
    order: (userId: string) => `${prefix}:agent-notifications:${userId}:order`,
    /** Id to the notification as JSON. */
    items: (userId: string) => `${prefix}:agent-notifications:${userId}:items`,
    /** The ids not read yet. */
    unread: (userId: string) => `${prefix}:agent-notifications:${userId}:unread`,
    live: (userId: string) => `${prefix}:agent-notifications-live:${userId}`,
  };
}

/**
 * Adds a notification (ARGV[1] id, ARGV[2] score, ARGV[3] JSON) unless its id is there already, then
 * keeps the newest ARGV[4], dropping the rest from all three keys in the same step. Answers 1 when added.
 */
const addScript = `
if redis.call('HEXISTS', KEYS[2], ARGV[1]) == 1 then return 0 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
redis.call('SADD', KEYS[3], ARGV[1])
local dropped = redis.call('ZRANGE', KEYS[1], 0, -(tonumber(ARGV[4]) + 1))
if #dropped > 0 then
  redis.call('ZREM', KEYS[1], unpack(dropped))
  redis.call('HDEL', KEYS[2], unpack(dropped))
  redis.call('SREM', KEYS[3], unpack(dropped))
end
return 1`;

/**
 * Each user's notifications in Redis (a bounded list, read or not), published on a channel per user
 * as they are added, which the user's inbox stream follows: a mention arrives at once, not at the
 * inbox's next poll.
 */
export function createNotifications(redis: RedisClient, prefix: string, kept = notificationsKept) {
  const keys = notificationKeys(prefix);
  return tagUnavailable('redis', {
    /** Tells each mentioned user of the note, but its author (once per note and user, however often it is called). */
    async mentioned(note: PrivateNote): Promise<void> {
      for (const { userId } of note.mentions) {
        if (userId === note.author.userId) continue;
        const notification: AgentNotification = {
          id: `ntf_${createHash('sha256').update(`${note.conversationId}\n${note.id}\n${userId}`).digest('hex').slice(0, 24)}`,
          type: 'mention',
          conversationId: note.conversationId,
          noteId: note.id,
          by: note.author,
          excerpt: note.text.length > excerptChars ? `${note.text.slice(0, excerptChars - 1)}…` : note.text,
          createdAt: note.createdAt,
        };
        const json = JSON.stringify(notification);
        const added = await redis.eval(addScript, {
          keys: [keys.order(userId), keys.items(userId), keys.unread(userId)],
          arguments: [notification.id, String(Date.parse(note.createdAt)), json, String(kept)],
        });
        if (added === 1) await redis.publish(keys.live(userId), JSON.stringify({ ...notification, read: false }));
      }
    },

    /** The user's notifications, newest first, and how many are unread. */
    async list(userId: string, limit = kept): Promise<{ notifications: ListedNotification[]; unread: number }> {
      const ids = await redis.zRange(keys.order(userId), 0, limit - 1, { REV: true });
      if (ids.length === 0) return { notifications: [], unread: 0 };
      const [items, unread, count] = await Promise.all([
        redis.hmGet(keys.items(userId), ids),
        redis.smIsMember(keys.unread(userId), ids),
        redis.sCard(keys.unread(userId)),
      ]);
      const notifications = items.flatMap((json, i) =>
        json ? [{ ...(JSON.parse(json) as AgentNotification), read: !unread[i] }] : [],
      );
      return { notifications, unread: count };
    },

    /** Marks the given notifications read (ids not the user's are ignored), or all of them; answers how many stay unread. */
    async markRead(userId: string, ids?: string[]): Promise<number> {
      if (ids === undefined) await redis.del(keys.unread(userId));
      else if (ids.length > 0) await redis.sRem(keys.unread(userId), ids);
      return redis.sCard(keys.unread(userId));
    },
  });
}

export type Notifications = ReturnType<typeof createNotifications>;

/** Follows one user's new notifications; after the subscriber reconnected, `resync` says to read them again. */
export function createNotificationFollower(channels: LiveChannels, prefix: string) {
  const keys = notificationKeys(prefix);
  return {
    follow(userId: string, deliver: (notification: ListedNotification) => void, resync: () => void): Promise<Listening> {
      return channels.listen(keys.live(userId), (raw) => deliver(JSON.parse(raw) as ListedNotification), resync);
    },
  };
}

export type NotificationFollower = ReturnType<typeof createNotificationFollower>;
