import type { Middleware } from 'koa';
import { routeTemplateOf } from '../route-template.js';

/** What the HTTP metrics record of each answered request. */
export interface HttpMetrics {
  answered(request: { method: string; route: string; status: number }, seconds: number): void;
}

/**
 * Counts each request once it is answered, by method, route template and status, with how long
 * it took (to the start of the body for an event stream). Sits outside the error handler, so the
 * status is the one the client gets.
 */
export function httpMetrics(metrics: HttpMetrics): Middleware {
  return async function httpMetrics(ctx, next) {
    const started = performance.now();
    try {
      await next();
    } finally {
      metrics.answered(
        { method: ctx.method, route: routeTemplateOf(ctx), status: ctx.status },
        (performance.now() - started) / 1000,
      );
    }
  };
}
