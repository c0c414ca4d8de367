import type { Middleware } from 'koa';

/** API answers are data for programs: never sniffed, framed or cached by intermediaries. */
export function secureHeaders(): Middleware {
  return async function secureHeaders(ctx, next) {
    ctx.set({
      'X-Content-Type-Options': 'nosniff',
      'X-Frame-Options': 'DENY',
      'Cache-Control': 'no-store',
      'Referrer-Policy': 'no-referrer',
    });
    await next();
  };
}
