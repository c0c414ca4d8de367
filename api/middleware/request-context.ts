import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { Logger } from '#platform/logger.js';
import type { ApiState } from '../state.js';

const acceptableId = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The path as logged: a webhook's last segment is its secret address (for a development-mode
 * messaging connection, the only secret), so it is replaced by the route's placeholder.
 */
export function loggedPath(path: string): string {
  return path.replace(/^(\/webhooks\/[^/]+\/).+$/, '$1{webhookPath}');
}

/**
 * Gives each request an id (the caller's `x-request-id` when it is sane, else a new one), echoes it,
 * and logs one line per request once it is answered. Only the path is logged, webhook addresses
 * redacted: query strings can carry tokens.
 */
export function requestContext(logger: Logger): Middleware<ApiState> {
  return async function requestContext(ctx, next) {
    const given = ctx.get('x-request-id');
    const requestId = acceptableId.test(given) ? given : `req_${randomUUID()}`;
    ctx.state.requestId = requestId;
    ctx.state.log = logger.child({ requestId });
    ctx.set('x-request-id', requestId);

    const started = performance.now();
    try {
      await next();
    } finally {
      const line = {
        method: ctx.method,
        path: loggedPath(ctx.path),
        status: ctx.status,
        durationMs: Math.round((performance.now() - started) * 10) / 10,
        ...(ctx.state.apiKey ? { tenantId: ctx.state.apiKey.tenantId, apiKeyPrefix: ctx.state.apiKey.prefix } : {}),
      };
      if (ctx.status >= 500) ctx.state.log.error(line, 'request failed');
      else ctx.state.log.info(line, 'request');
    }
  };
}
