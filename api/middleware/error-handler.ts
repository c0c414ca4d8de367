import type { Middleware } from 'koa';
import { notFound, statusError, toAppError, type AppError } from '../errors.js';

/** Where failures are answered as pages for people rather than the API's error body. */
export interface ErrorPages {
  /** A path prefix: `/help/`. */
  under: string;
  render(error: AppError, requestId?: string): string;
  /** Sent with the page (its Content-Security-Policy). */
  headers: Record<string, string>;
}

/**
 * First in the chain: renders every failure in the one error body, and answers unknown routes
 * with 404 `not_found` (and a bare 405 or 501 from the routers likewise). Under the prefix of one
 * of `pages`, the same failure is its HTML page instead, with the same status and headers.
 * Unexpected errors are handed to `app.on('error')` for logging; `observe` sees every error
 * rendered (the metrics).
 */
export function errorHandler(observe: (error: AppError) => void = () => undefined, pages: ErrorPages[] = []): Middleware {
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
      const page = pages.find(({ under }) => ctx.path.startsWith(under));
      if (page) {
        ctx.set(page.headers);
        ctx.type = 'text/html; charset=utf-8';
        ctx.body = page.render(appError, ctx.state.requestId);
      } else ctx.body = appError.toBody(ctx.state.requestId);
      // Only the unexpected is an error to log with its stack; a 503 for a dependency that is down
      // is already in the request line.
      if (appError.code === 'internal') ctx.app.emit('error', error, ctx);
    }
  };
}
