import { readdir } from 'node:fs/promises';
import { send } from '@koa/send';
import Koa from 'koa';

const versionPattern = /^v(\d+)\.(\d+)\.(\d+)$/;
const filePattern = /^\/(latest|v\d+\.\d+\.\d+)\/([A-Za-z0-9._-]+)$/;

/**
 * Serves the widget files: `/v<x.y.z>/<file>` from that immutable release (cached for a year),
 * `/latest/<file>` from the newest release (cached briefly, since it moves). Any origin may load
 * them: the widget runs on tenants' sites.
 */
export function createCdnApp({ releasesDir }: { releasesDir: string }): Koa {
  const app = new Koa();

  app.use(async (ctx, next) => {
    ctx.set({
      'Access-Control-Allow-Origin': '*',
      'Cross-Origin-Resource-Policy': 'cross-origin',
      'X-Content-Type-Options': 'nosniff',
    });
    await next();
  });

  app.use(async (ctx) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return notFound(ctx);
    if (ctx.path === '/health') {
      ctx.body = { status: 'ok' };
      return;
    }
    const match = filePattern.exec(ctx.path);
    if (!match) return notFound(ctx);
    const [, segment, file] = match as unknown as [string, string, string];
    const version = segment === 'latest' ? await newestRelease(releasesDir) : segment;
    if (!version) return notFound(ctx);

    const pinned = segment !== 'latest';
    try {
      await send(ctx, `${version}/${file}`, {
        root: releasesDir,
        immutable: pinned,
        maxage: pinned ? 365 * 24 * 3600 * 1000 : 60 * 1000,
      });
    } catch (error) {
      if ((error as { status?: number }).status === 404) return notFound(ctx);
      throw error;
    }
  });

  return app;
}

function notFound(ctx: Koa.Context): void {
  ctx.status = 404;
  ctx.body = { error: { code: 'not_found', message: `No widget file at ${ctx.path}.` } };
}

/** The highest `v<x.y.z>` folder, by semantic version. */
export async function newestRelease(releasesDir: string): Promise<string | undefined> {
  const entries = await readdir(releasesDir, { withFileTypes: true }).catch(() => []);
  const versions = entries
    .filter((entry) => entry.isDirectory() && versionPattern.test(entry.name))
    .map((entry) => ({ name: entry.name, parts: versionPattern.exec(entry.name)!.slice(1).map(Number) }));
  versions.sort((a, b) => a.parts[0]! - b.parts[0]! || a.parts[1]! - b.parts[1]! || a.parts[2]! - b.parts[2]!);
  return versions.at(-1)?.name;
}
