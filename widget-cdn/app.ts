import { extname } from 'node:path';
import { send } from '@koa/send';
import Koa, { type Context, type Middleware } from 'koa';
import { latestVersion } from './build/releases.js';
import { demoPage } from './demo-page.js';

export interface CdnAppOptions {
  /** The releases folder: `v<x.y.z>/` folders and the `latest` symlink (see `build/releases.ts`). */
  releasesDir: string;
  /** `{base_url}` of the REST API, told to widgets that were not given one (`/service.json`). */
  apiUrl: string;
  /** Serve the demo page at `/demo` (outside production), suggesting `questions` to ask. */
  demo?: false | { questions: readonly string[] };
}

/** The only names served; never the `.br`/`.gz` siblings, temp folders or anything else in the folder. */
const filePath = /^\/(latest|v\d+\.\d+\.\d+)\/([A-Za-z0-9_-][A-Za-z0-9._-]*\.(?:js|json))$/;

const contentTypes: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
};

const cacheControl = {
  /** A pinned release never changes. */
  pinned: 'public, max-age=31536000, immutable',
  /** `latest` moves, so a rollback reaches visitors within minutes. */
  moving: 'public, max-age=300',
};

const allowedMethods = 'GET, HEAD, OPTIONS';

/**
 * The widget file server ({cdn_url}). Any origin may load its files: the widget runs on tenants'
 * sites, as a module script and with SRI (`crossorigin="anonymous"`), both of which need CORS.
 */
export function createCdnApp({ releasesDir, apiUrl, demo = false }: CdnAppOptions): Koa {
  const app = new Koa();
  app.use(crossOriginHeaders());
  app.use(errorBody());
  app.use(methods());
  app.use(async (ctx) => {
    if (ctx.path === '/health') {
      ctx.set('Cache-Control', 'no-store');
      ctx.body = { status: 'ok' };
    } else if (ctx.path === '/service.json') {
      ctx.set('Cache-Control', cacheControl.moving);
      ctx.body = { apiUrl };
    } else if (demo && ctx.path === '/demo') {
      ctx.set('Cache-Control', 'no-store');
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = demoPage(demo.questions);
    } else {
      await sendReleaseFile(ctx, releasesDir);
    }
  });
  return app;
}

/** Outermost and applied last, so that error answers (whose headers are reset) carry them too. */
function crossOriginHeaders(): Middleware {
  return async function crossOriginHeaders(ctx, next) {
    await next();
    ctx.set({
      'Access-Control-Allow-Origin': '*',
      'Cross-Origin-Resource-Policy': 'cross-origin',
      'X-Content-Type-Options': 'nosniff',
    });
  };
}

/**
 * Renders every failure as `{"error": {code, message}}`. Headers set on the way (a `Content-Encoding`
 * chosen before the file turned out missing) are dropped first, as Koa's own error handling does.
 */
function errorBody(): Middleware {
  return async function errorBody(ctx, next) {
    try {
      await next();
    } catch (error) {
      const http = error as { status?: number; expose?: boolean; message: string; headers?: Record<string, string> };
      const known = typeof http.status === 'number' && http.expose === true;
      const status = known ? http.status! : 500;
      for (const name of ctx.res.getHeaderNames()) ctx.res.removeHeader(name);
      if (known && http.headers) ctx.set(http.headers);
      ctx.status = status;
      ctx.body = {
        error: { code: errorCodes[status] ?? 'internal', message: known ? http.message : 'Something went wrong on our side.' },
      };
      if (!known) ctx.app.emit('error', error, ctx);
    }
  };
}

const errorCodes: Record<number, string> = { 404: 'not_found', 405: 'method_not_allowed' };

/** Files are only read: preflights are answered, anything but GET and HEAD is refused. */
function methods(): Middleware {
  return async function methods(ctx, next) {
    if (ctx.method === 'OPTIONS') {
      ctx.status = 204;
      ctx.set({ Allow: allowedMethods, 'Access-Control-Allow-Methods': 'GET, HEAD' });
      return;
    }
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      ctx.throw(405, `The widget files are read-only: use GET or HEAD, not ${ctx.method}.`, {
        headers: { Allow: allowedMethods },
      });
    }
    await next();
  };
}

/**
 * `/v<x.y.z>/<file>` from that release, `/latest/<file>` from the release the `latest` symlink names.
 * The link is read once per request and the file served from the release folder itself, so a
 * rollback in mid-request cannot mix two releases' bytes and lengths. The `.br`/`.gz` sibling is
 * sent when the client accepts it (`@koa/send` picks it and sets `Content-Encoding`).
 */
async function sendReleaseFile(ctx: Context, releasesDir: string): Promise<void> {
  const match = filePath.exec(ctx.path);
  if (!match) ctx.throw(404, `No widget file at ${ctx.path}.`);
  const [, segment, file] = match as unknown as [string, string, string];
  const pinned = segment !== 'latest';
  const version = pinned ? segment : await latestVersion(releasesDir);
  if (!version) ctx.throw(404, 'No widget release is published yet.');

  let sent: string | undefined;
  try {
    sent = await send(ctx, `${version}/${file}`, {
      root: releasesDir,
      setHeaders(res) {
        res.setHeader('Content-Type', contentTypes[extname(file)]!);
        res.setHeader('Cache-Control', pinned ? cacheControl.pinned : cacheControl.moving);
        res.setHeader('Vary', 'Accept-Encoding');
      },
    });
  } catch (error) {
    if ((error as { status?: number }).status !== 404) throw error;
  }
  if (!sent) ctx.throw(404, `No widget file at ${ctx.path}.`);
}
