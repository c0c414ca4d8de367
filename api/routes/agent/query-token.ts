import type { Middleware } from 'koa';

/**
 * A browser's EventSource cannot send an Authorization header, so the event-stream routes also take
 * the user token as `?token=`. This turns it into the header `requireUser` reads, on the paths given
 * only (everywhere else a token in the URL would end up in histories and proxies' logs). A request
 * that sends the header keeps it.
 */
export function tokenFromQuery(isStreamPath: (path: string) => boolean): Middleware {
  return async function tokenFromQuery(ctx, next) {
    const token = ctx.query.token;
    if (typeof token === 'string' && token && !ctx.get('authorization') && isStreamPath(ctx.path))
      ctx.request.headers.authorization = `Bearer ${token}`;
    await next();
  };
}
