import type { Client } from '@temporalio/client';
import type { EventDeliveryDeps } from '#activities/outbound-events/deliver-event.js';
import { createDeliveryLog } from '#outbound-events/deliveries.js';
import { createEventEmitter, type EventEmitter } from '#outbound-events/emitter.js';
import { createEventEndpoints } from '#outbound-events/endpoints.js';
import { deliverySettingsOf } from '#outbound-events/settings.js';
import type { Config } from '#platform/config.js';
import type { OutboundPost } from '#platform/outbound/outbound-http.js';
import type { RedisClient } from '#platform/redis.js';
import type { SecretBox } from '#platform/secret-box.js';

/** The worker's side of outbound events: the emitter the activities tell of facts, and what delivery needs. */
export function createOutboundEvents(deps: {
  redis: RedisClient;
  secretBox: SecretBox;
  temporal: Client;
  config: Pick<Config, 'redis' | 'temporal' | 'events'>;
  http: OutboundPost;
}): { emitter: EventEmitter; delivery: EventDeliveryDeps } {
  const { redis, secretBox, temporal, config, http } = deps;
  const endpoints = createEventEndpoints(redis, config.redis.prefix, secretBox);
  return {
    emitter: createEventEmitter({
      endpoints,
      temporal,
      taskQueue: config.temporal.taskQueue,
      settings: deliverySettingsOf(config.events),
    }),
    delivery: {
      endpoints,
      deliveries: createDeliveryLog(redis, config.redis.prefix),
      http,
      requestTimeoutMs: config.events.requestTimeoutMs,
    },
  };
}
