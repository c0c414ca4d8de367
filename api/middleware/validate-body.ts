import type { Middleware } from 'koa';
import { compileValidator } from '../validation.js';

/** Checks `ctx.request.body` against a JSON Schema compiled once, before the handler runs. */
export function validateBody(schema: object, { optional = false } = {}): Middleware {
  const assertValid = compileValidator(schema);
  return async function validateBody(ctx, next) {
    if (optional && ctx.request.body === undefined) ctx.request.body = {};
    assertValid(ctx.request.body);
    await next();
  };
}

/**
 * Checks the query string against a JSON Schema (numbers and booleans read from text, defaults
 * filled in) and leaves the result in `ctx.state.query`.
 */
export function validateQuery(schema: object): Middleware {
  const assertValid = compileValidator<Record<string, unknown>>(schema, 'query');
  return async function validateQuery(ctx, next) {
    ctx.state.query = assertValid({ ...ctx.query });
    await next();
  };
}
