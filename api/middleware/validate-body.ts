import type { Middleware } from 'koa';
import { compileValidator } from '../validation.js';

/** Checks `ctx.request.body` against a JSON Schema compiled once, before the handler runs. */
export function validateBody(schema: object): Middleware {
  const assertValid = compileValidator(schema);
  return async function validateBody(ctx, next) {
    assertValid(ctx.request.body);
    await next();
  };
}
