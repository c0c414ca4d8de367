import type { Middleware } from 'koa';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { asUnavailable } from '#platform/dependency-errors.js';
import type { RedisClient } from '#platform/redis.js';
import { rateLimited } from '../errors.js';
import type { AuthenticatedState } from '../state.js';

/**
 * A per-API-key budget of `perMinute` requests, counted in Redis so that every API process shares
 * it. Every answer carries the `RateLimit-*` headers; an exhausted budget is 429 with `Retry-After`.
 */
export function rateLimitPerKey(
  redis: RedisClient,
  options: { prefix: string; perMinute: number },
): Middleware<AuthenticatedState> {
  const limiter = new RateLimiterRedis({
    storeClient: redis,
    useRedisPackage: true,
    keyPrefix: `${options.prefix}:rate-limit`,
    points: options.perMinute,
    duration: 60,
  });

  return async function rateLimitPerKey(ctx, next) {
    let result: RateLimiterRes;
    try {
      result = await limiter.consume(ctx.state.apiKey.id);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw asUnavailable('redis', rejection);
      ctx.set(headers(rejection, options.perMinute));
      throw rateLimited(Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)));
    }
    ctx.set(headers(result, options.perMinute));
    await next();
  };
}

function headers(result: RateLimiterRes, limit: number): Record<string, string> {
  return {
    'RateLimit-Limit': String(limit),
    'RateLimit-Remaining': String(Math.max(0, result.remainingPoints)),
    'RateLimit-Reset': String(Math.ceil(result.msBeforeNext / 1000)),
  };
}
