import { asUnavailable } from '#platform/dependency-errors.js';
import type { RedisClient } from '#platform/redis.js';

export interface Listening {
  stop(): Promise<void>;
}

/**
 * Pub/Sub channels for what is kept elsewhere in Redis and only announced live (agents' private
 * notes, their notifications), on the process's shared subscriber connection (the one the
 * conversation follower uses). Unlike conversation events, these have no stream to resume from: when
 * the subscriber comes back after losing its connection (it resubscribes by itself), each listener's
 * `resync` is called, to read again from where the thing is kept what the gap may have held.
 */
export function createLiveChannels(subscriber: RedisClient) {
  const resyncs = new Set<() => void>();
  subscriber.on('ready', () => resyncs.forEach((resync) => resync()));

  return {
    async listen(channel: string, onMessage: (raw: string) => void, resync: () => void): Promise<Listening> {
      try {
        await subscriber.subscribe(channel, onMessage);
      } catch (error) {
        await subscriber.unsubscribe(channel, onMessage).catch(() => undefined);
        throw asUnavailable('redis', error);
      }
      const entry = () => resync();
      resyncs.add(entry);
      return {
        async stop() {
          if (!resyncs.delete(entry)) return;
          await subscriber.unsubscribe(channel, onMessage).catch(() => undefined);
        },
      };
    },
  };
}

export type LiveChannels = ReturnType<typeof createLiveChannels>;
