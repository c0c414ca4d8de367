import type { Middleware } from 'koa';
import { secretsEqual } from '#tenancy/secrets.js';
import { unauthorized } from '../errors.js';

/** The platform routes accept only `Authorization: Bearer <ADMIN_TOKEN>`; API keys are never enough. */
export function requireAdmin(adminToken: string): Middleware {
  return async function requireAdmin(ctx, next) {
    const match = /^Bearer (\S+)$/.exec(ctx.get('authorization'));
    if (!match) throw unauthorized('Missing admin token: send Authorization: Bearer <ADMIN_TOKEN>.');
    if (!secretsEqual(match[1]!, adminToken)) throw unauthorized('The admin token is not valid.');
    await next();
  };
}
