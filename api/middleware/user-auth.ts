import type { Middleware } from 'koa';
import type { Tenancy, User, UserRole } from '#tenancy/index.js';
import { forbidden, keyExpired, unauthorized } from '../errors.js';
import type { UserState } from '../state.js';

/**
 * The dashboard-area routes (`/integrations/...`, `/agent/...`): `Authorization: Bearer <user token>`
 * of a tenant user whose role is one of `roles`. The tenant is the user's, never the request's.
 * Missing, unknown (or rotated-away) token, or a deactivated user: 401; an expired token: 403
 * `key_expired`, as for an expired API key; a role not allowed here: 403.
 */
export function requireUser(
  tenancy: Pick<Tenancy, 'findUserByToken'>,
  roles: readonly UserRole[],
  now: () => Date = () => new Date(),
): Middleware<UserState> {
  return async function requireUser(ctx, next) {
    const match = /^Bearer (\S+)$/.exec(ctx.get('authorization'));
    if (!match) throw unauthorized('Missing user token: send Authorization: Bearer <user token>.');
    ctx.state.user = await authenticateUser(tenancy, match[1]!, roles, now);
    await next();
  };
}

/**
 * The user a token authenticates, with a role of `roles`, or the 401/403 `requireUser` answers.
 * Open event streams ask again with it now and then, so a token that stops working (rotated away,
 * expired, its user deactivated) ends them.
 */
export async function authenticateUser(
  tenancy: Pick<Tenancy, 'findUserByToken'>,
  token: string,
  roles: readonly UserRole[],
  now: () => Date = () => new Date(),
): Promise<User> {
  const user: User | undefined = await tenancy.findUserByToken(token);
  if (!user) throw unauthorized('The user token is not valid.');
  if (!user.active) throw unauthorized('This user has been deactivated: ask an administrator of the service.');
  if (Date.parse(user.tokenExpiresAt) <= now().getTime())
    throw keyExpired('This user token has expired: ask an administrator of the service to rotate it.');
  refuseRole(user.role, roles);
  return user;
}

/** 403 unless `role` is one of `roles`: for a route stricter than its router (an admin's route among agents'). */
export function refuseRole(role: UserRole, roles: readonly UserRole[]): void {
  if (!roles.includes(role)) throw forbidden(`This needs the role ${roles.join(' or ')}; the user is ${role}.`);
}
