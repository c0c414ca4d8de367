import type { Middleware } from 'koa';
import type { RedisClient } from '#platform/redis.js';
import type { Tenancy, UserRole } from '#tenancy/index.js';
import { clientAddressOf } from '../client-address.js';
import type { ApiState, UserState } from '../state.js';
import { requireAdmin } from './admin-auth.js';
import { limitRefusals, rateLimitBy } from './rate-limit.js';
import { requireUser } from './user-auth.js';

export interface TokenBudgets {
  prefix: string;
  /** Requests per minute of each client address on /admin, refused ones included. */
  adminPerMinute: number;
  /** Requests per minute of each tenant user on the dashboard-area routes. */
  userPerMinute: number;
  /** Refused tokens per minute of each client address, admin and user tokens together. */
  refusedTokensPerMinute: number;
}

/** Authenticates a dashboard-area request as a user of one of `roles`, within the budgets. */
export type UserGuard = (roles: readonly UserRole[]) => Middleware<UserState>;

/**
 * The guards of the routes behind a bearer token. Refused tokens are counted per client address
 * (one budget for admin and user tokens: guessing either is the same attack), so neither token can
 * be guessed faster than `refusedTokensPerMinute`. The admin token is one secret shared by every
 * caller, so /admin is budgeted per address, refused requests included; a user's routes are
 * budgeted per user, once the token says who it is.
 */
export function tokenGuards(
  redis: RedisClient,
  tenancy: Pick<Tenancy, 'findUserByToken'>,
  adminToken: string,
  budgets: TokenBudgets,
): { requireAdmin: Middleware<ApiState>; requireUser: UserGuard } {
  const { prefix } = budgets;
  const refusals = {
    prefix,
    name: 'refused-token',
    limit: budgets.refusedTokensPerMinute,
    keyOf: clientAddressOf,
    subject: 'this address after refused tokens',
    // A known user without the role is no guess at a token.
    counted: [401],
  };
  const adminAddress = rateLimitBy<ApiState>(redis, {
    prefix,
    name: 'admin-address',
    limit: budgets.adminPerMinute,
    keyOf: clientAddressOf,
    subject: 'this address',
  });
  const perUser = rateLimitBy<UserState>(redis, {
    prefix,
    name: 'user',
    limit: budgets.userPerMinute,
    keyOf: (ctx) => ctx.state.user.id,
    subject: 'this user',
  });
  return {
    requireAdmin: inOrder(adminAddress, limitRefusals(redis, refusals, requireAdmin(adminToken))),
    requireUser: (roles) => inOrder(limitRefusals(redis, refusals, requireUser(tenancy, roles)), perUser),
  };
}

/** Two middleware as one: `first`, then `second` when `first` passes the request on. */
function inOrder<State>(first: Middleware<State>, second: Middleware<State>): Middleware<State> {
  return (ctx, next) => first(ctx, () => second(ctx, next));
}
