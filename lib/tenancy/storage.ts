import type { RedisClient } from '#platform/redis.js';
import type { TenancyKeys } from './redis-keys.js';

/** What every tenancy module is built from. */
export interface TenancyStorage {
  redis: RedisClient;
  keys: TenancyKeys;
  now: () => Date;
}
