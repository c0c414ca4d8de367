import { tagUnavailable } from '#platform/dependency-errors.js';
import type { RedisClient } from '#platform/redis.js';
import type { LiveChannels, Listening } from './live-channels.js';

/** A change of a tenant's inbox worth showing at once: a conversation given to someone (or no one). */
export interface InboxChange {
  conversationId: string;
  assigneeId: string | null;
}

/**
 * Tells the open inbox pages of a tenant that its inbox changed (Pub/Sub, one channel per tenant), so an
 * agent given a conversation sees it at once rather than at the page's next read. Only a nudge: the page
 * reads the list again, which is where the truth is; a nudge lost while the subscriber reconnected is
 * made good by that reconnection's resync and by the stream's regular reads.
 */
export function createInboxChanges(redis: RedisClient, prefix: string) {
  const channel = (tenantId: string) => `${prefix}:inbox-live:${tenantId}`;
  return {
    ...tagUnavailable('redis', {
      async publish(tenantId: string, change: InboxChange): Promise<void> {
        await redis.publish(channel(tenantId), JSON.stringify(change));
      },
    }),

    listen(channels: LiveChannels, tenantId: string, onChange: (change: InboxChange | null) => void): Promise<Listening> {
      return channels.listen(
        channel(tenantId),
        (raw) => onChange(JSON.parse(raw) as InboxChange),
        () => onChange(null),
      );
    },
  };
}

export type InboxChanges = ReturnType<typeof createInboxChanges>;
