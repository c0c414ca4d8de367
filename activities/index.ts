import type { Logger } from '#platform/logger.js';
import type { RedisClient } from '#platform/redis.js';
import type { WeaviateClient } from '#platform/weaviate.js';

/** The clients activities reach the world through, built once per worker process. */
export interface ActivityDeps {
  logger: Logger;
  redis: RedisClient;
  weaviate: WeaviateClient;
}

/**
 * Every activity of the worker, as one flat object (names are unique across areas). Each area adds
 * its factory here as it lands; workflows see only `Activities`, the type.
 */
export function createActivities(_deps: ActivityDeps) {
  return {};
}

export type Activities = ReturnType<typeof createActivities>;
