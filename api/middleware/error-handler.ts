import type { Middleware } from 'koa';
import { notFound, statusError, toAppError, type AppError } from '../errors.js';

/**
 * First in the chain: renders every failure in the one error body, and answers unknown routes
 * with 404 `not_found` (and a bare 405 or 501 from the routers likewise). Unexpected errors are
 * handed to `app.on('error')` for logging; `observe` sees every error rendered (the metrics).
 */
export function errorHandler(observe: (error: AppError) => void = () => undefined): Middleware {
  return async function errorHandler(ctx, next) {
    try {
      await next();
      if (ctx.body == null && ctx.status === 404) throw notFound(`No route ${ctx.method} ${ctx.path}.`);
      if (ctx.body == null && ctx.status >= 400) throw statusError(ctx.status);
    } catch (error) {
      const appError = toAppError(error);
      observe(appError);
      ctx.status = appError.status;
      ctx.set(appError.headers);
      ctx.body = appError.toBody(ctx.state.requestId);
      // Only the unexpected is an error to log with its stack; a 503 for a dependency that is down
      // is already in the request line.
      if (appError.code === 'internal') ctx.app.emit('error', error, ctx);
    }
  };
}
