import { randomUUID } from 'node:crypto';
import type { TestFn } from 'ava';
import { createLogger } from '#platform/logger.js';
import { closeRedisClient, createRedisClient, type RedisClient } from '#platform/redis.js';

/** Deletes every key matching `pattern` (a test's prefix, say). */
export async function deleteKeys(redis: RedisClient, pattern: string): Promise<void> {
  const keys: string[] = [];
  for await (const key of redis.scanIterator({ MATCH: pattern, COUNT: 500 })) keys.push(key);
  if (keys.length > 0) await redis.del(keys);
}

/**
 * A Redis client for a test file on a key prefix of its own: connected before the file's tests, and
 * after them its keys deleted and the client closed. `redis()` is the client once connected.
 */
export function useTestRedis(test: TestFn, prefix = `test-${randomUUID().slice(0, 8)}`) {
  let redis: RedisClient | undefined;
  test.before(async () => {
    redis = createRedisClient(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', createLogger({ level: 'silent', name: 'test' }));
    await redis.connect();
  });
  test.after.always(async () => {
    if (!redis?.isReady) return;
    await deleteKeys(redis, `${prefix}:*`);
    await closeRedisClient(redis);
  });
  return {
    prefix,
    redis(): RedisClient {
      if (!redis) throw new Error('The test Redis client is used before its test.before hook ran.');
      return redis;
    },
  };
}
