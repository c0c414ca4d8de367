import type { Middleware } from 'koa';
import type { Scope, Tenancy } from '#tenancy/index.js';
import { forbidden, keyExpired, unauthorized } from '../errors.js';
import type { ApiState, AuthenticatedState } from '../state.js';

/**
 * Authenticates the `x-api-key` header and requires `scope`: 401 for a missing, unknown or
 * deactivated key, 403 `key_expired` for an expired one, 403 `forbidden` for a missing scope.
 * The tenant of the request is the key's tenant.
 */
export function requireApiKey(
  tenancy: Pick<Tenancy, 'findApiKeyBySecret'>,
  scope: Scope,
  now: () => Date = () => new Date(),
): Middleware<ApiState, object> {
  return async function requireApiKey(ctx, next) {
    const secret = ctx.get('x-api-key');
    if (!secret) throw unauthorized('Missing API key: send it in the x-api-key header.');

    const apiKey = await tenancy.findApiKeyBySecret(secret);
    if (!apiKey) throw unauthorized('The API key is not valid: check the x-api-key header.');
    if (!apiKey.active) throw unauthorized('This API key has been deactivated: use an active key.');
    if (apiKey.expiresAt && Date.parse(apiKey.expiresAt) <= now().getTime()) throw keyExpired();
    if (!apiKey.scopes.includes(scope)) throw forbidden(`This API key lacks the ${scope} scope.`);

    (ctx.state as AuthenticatedState).apiKey = apiKey;
    await next();
  };
}
