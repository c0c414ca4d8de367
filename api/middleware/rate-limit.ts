import type { Context, Middleware } from 'koa';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { asUnavailable } from '#platform/dependency-errors.js';
import type { RedisClient } from '#platform/redis.js';
import { rateLimited, toAppError } from '../errors.js';
import type { AuthenticatedState } from '../state.js';

export interface RateLimitOptions<State> {
  prefix: string;
  /** Names the budget in Redis keys: budgets of different names never share a count. */
  name: string;
  /** Requests per window of `windowSeconds` (a minute unless set). */
  limit: number;
  windowSeconds?: number;
  /** Whose budget a request spends. */
  keyOf(ctx: Context & { state: State }): string;
  /** Who ran out, for the 429 message: "this API key", "this visitor". */
  subject: string;
  /** `limitRefusals` only: the refusals that count; by default every 4xx. */
  counted?: readonly number[];
}

/**
 * A budget of `limit` requests per key and window, counted in Redis so that every API process
 * shares it. Every answer carries the `RateLimit-*` headers; an exhausted budget is 429 with `Retry-After`.
 */
export function rateLimitBy<State>(redis: RedisClient, options: RateLimitOptions<State>): Middleware<State> {
  const limiter = limiterFor(redis, options);

  return async function rateLimitBy(ctx, next) {
    let result: RateLimiterRes;
    try {
      result = await limiter.consume(options.keyOf(ctx as Context & { state: State }));
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw asUnavailable('redis', rejection);
      ctx.set(headers(rejection, options.limit));
      throw rateLimited(secondsToWait(rejection), options.subject, options.name);
    }
    ctx.set(headers(result, options.limit));
    await next();
  };
}

/**
 * Guards an authentication middleware: the requests it refuses (any 4xx it throws before passing
 * the request on) are counted per key, and a key that had `limit` refusals within its window
 * is answered 429 before `auth` even looks at the request. A secret can then be guessed no faster
 * than that from one address, whatever else the routes allow.
 */
export function limitRefusals<State>(
  redis: RedisClient,
  options: RateLimitOptions<State>,
  auth: Middleware<State>,
): Middleware<State> {
  const limiter = limiterFor(redis, options);
  return async function limitRefusals(ctx, next) {
    const key = options.keyOf(ctx as Context & { state: State });
    const refused = await limiter.get(key).catch((error: unknown) => {
      throw asUnavailable('redis', error);
    });
    if (refused && refused.consumedPoints >= options.limit) {
      ctx.set(headers(refused, options.limit));
      throw rateLimited(secondsToWait(refused), options.subject, options.name);
    }
    let passed = false;
    try {
      await auth(ctx, () => {
        passed = true;
        return next();
      });
    } catch (error) {
      const status = toAppError(error).status;
      if (!passed && status < 500 && (options.counted ?? [status]).includes(status))
        await limiter.penalty(key).catch((failure: unknown) => {
          throw asUnavailable('redis', failure);
        });
      throw error;
    }
  };
}

function limiterFor(redis: RedisClient, options: Pick<RateLimitOptions<never>, 'prefix' | 'name' | 'limit' | 'windowSeconds'>) {
  return new RateLimiterRedis({
    storeClient: redis,
    useRedisPackage: true,
    keyPrefix: `${options.prefix}:rate-limit${options.name === 'api-key' ? '' : `:${options.name}`}`,
    points: options.limit,
    duration: options.windowSeconds ?? 60,
  });
}

const secondsToWait = (result: RateLimiterRes) => Math.max(1, Math.ceil(result.msBeforeNext / 1000));

/** The per-API-key budget of the REST API. */
export function rateLimitPerKey(
  redis: RedisClient,
  options: { prefix: string; perMinute: number },
): Middleware<AuthenticatedState> {
  return rateLimitBy<AuthenticatedState>(redis, {
    prefix: options.prefix,
    limit: options.perMinute,
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
