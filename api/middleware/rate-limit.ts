import type { Context, Middleware } from 'koa';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { asUnavailable } from '#platform/dependency-errors.js';
import type { RedisClient } from '#platform/redis.js';
import { rateLimited } from '../errors.js';
import type { AuthenticatedState } from '../state.js';

export interface RateLimitOptions<State> {
  prefix: string;
  /** Names the budget in Redis keys: budgets of different names never share a count. */
  name: string;
  perMinute: number;
  /** Whose budget a request spends. */
  keyOf(ctx: Context & { state: State }): string;
  /** Who ran out, for the 429 message: "this API key", "this visitor". */
  subject: string;
}

/**
 * A budget of `perMinute` requests per key, counted in Redis so that every API process shares it.
 * Every answer carries the `RateLimit-*` headers; an exhausted budget is 429 with `Retry-After`.
 */
export function rateLimitBy<State>(redis: RedisClient, options: RateLimitOptions<State>): Middleware<State> {
  const limiter = new RateLimiterRedis({
    storeClient: redis,
    useRedisPackage: true,
    keyPrefix: `${options.prefix}:rate-limit${options.name === 'api-key' ? '' : `:${options.name}`}`,
    points: options.perMinute,
    duration: 60,
  });

  return async function rateLimitBy(ctx, next) {
    let result: RateLimiterRes;
    try {
      result = await limiter.consume(options.keyOf(ctx as Context & { state: State }));
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw asUnavailable('redis', rejection);
      ctx.set(headers(rejection, options.perMinute));
      throw rateLimited(Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)), options.subject);
    }
    ctx.set(headers(result, options.perMinute));
    await next();
  };
}

/** The per-API-key budget of the REST API. */
export function rateLimitPerKey(
  redis: RedisClient,
  options: { prefix: string; perMinute: number },
): Middleware<AuthenticatedState> {
  return rateLimitBy<AuthenticatedState>(redis, {
    ...options,
    name: 'api-key',
    keyOf: (ctx) => ctx.state.apiKey.id,
    subject: 'this API key',
  });
}

function headers(result: RateLimiterRes, limit: number): Record<string, string> {
  return {
    'RateLimit-Limit': String(limit),
    'RateLimit-Remaining': String(Math.max(0, result.remainingPoints)),
    'RateLimit-Reset': String(Math.ceil(result.msBeforeNext / 1000)),
  };
}
