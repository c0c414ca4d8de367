import { tagUnavailable } from '#platform/dependency-errors.js';
import type { RedisClient } from '#platform/redis.js';
import type { EventType } from './event-types.js';
import { eventEndpointKeys } from './redis-keys.js';

/** One attempt to deliver an event, as `GET /integrations/event-endpoints/{id}/deliveries` lists it. */
export interface DeliveryAttempt {
  eventId: string;
  type: EventType;
  /** 1 for the first try; 0 when the event was not sent at all (`skipped`). */
  attempt: number;
  /**
   * `delivered` (a 2xx), `failed` (will be tried again), `gave_up` (the retry horizon passed: the
   * event is dropped and the endpoint disabled), `skipped` (the endpoint was disabled).
   */
  outcome: 'delivered' | 'failed' | 'gave_up' | 'skipped';
  /** The endpoint's answer, or null when there was none (unreachable, timeout, refused address). */
  statusCode: number | null;
  error: string | null;
  at: string;
}

/** Attempts kept per endpoint, newest first; older ones drop off. */
export const keptAttempts = 100;
/** An endpoint that hears of nothing for this long loses its list. */
const keptSeconds = 7 * 24 * 3600;

/** The recent delivery attempts of each endpoint: a capped Redis list. */
export function createDeliveryLog(redis: RedisClient, prefix: string) {
  const keys = eventEndpointKeys(prefix);
  return tagUnavailable('redis', {
    async record(endpointId: string, attempt: DeliveryAttempt): Promise<void> {
      const key = keys.deliveries(endpointId);
      await redis
        .multi()
        .lPush(key, JSON.stringify(attempt))
        .lTrim(key, 0, keptAttempts - 1)
        .expire(key, keptSeconds)
        .exec();
    },

    /** Newest first, at most `limit`. */
    async recent(endpointId: string, limit = keptAttempts): Promise<DeliveryAttempt[]> {
      const entries = await redis.lRange(keys.deliveries(endpointId), 0, limit - 1);
      return entries.map((entry) => JSON.parse(entry) as DeliveryAttempt);
    },
  });
}

export type DeliveryLog = ReturnType<typeof createDeliveryLog>;
