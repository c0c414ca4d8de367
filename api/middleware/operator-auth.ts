import type { Middleware } from 'koa';
import type { Tenancy } from '#tenancy/index.js';
import { isOriginAllowed } from './operator-origins.js';
import { forbidden, unauthorized } from '../errors.js';
import type { ApiState, ChatState } from '../state.js';

/**
 * Authenticates a widget request by its operator key (`x-operator-key`), public by design, and the
 * browser's `Origin`, which must match one of the operator's allowed domains. A rejected key or
 * origin is 403 and says nothing about the operator or its tenant; so is a key rotated away (after
 * its grace period) or the key of a disabled operator.
 */
export function requireOperator(tenancy: Pick<Tenancy, 'findOperatorByKey'>): Middleware<ApiState> {
  return async function requireOperator(ctx, next) {
    const operatorKey = ctx.get('x-operator-key');
    if (!operatorKey) throw unauthorized('Missing operator key: send it in the x-operator-key header.');
    const operator = await tenancy.findOperatorByKey(operatorKey);
    if (!operator) throw forbidden('This operator key is not valid.');
    if (!operator.active) throw forbidden('This operator has been disabled.');
    if (!isOriginAllowed(ctx.get('origin') || undefined, operator.allowedDomains))
      throw forbidden("This page's origin is not allowed for this operator: add it to the operator's allowed domains.");
    (ctx.state as ChatState).operator = operator;
    await next();
  };
}
