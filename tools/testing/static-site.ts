import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative } from 'node:path';
import Koa from 'koa';
import { startHttpFake, type HttpFake } from './http-fake.js';

/*
 * A website for the crawler to crawl: real files from a folder (a Debian manual's HTML, say) served by
 * Koa with validators (an ETag of the bytes, Last-Modified) and conditional answers (304 when
 * fresh, as Koa's `ctx.fresh` decides), plus files the test writes (robots.txt, a sitemap, a PDF).
 * It records every request, and how many were in flight at once, and can be told to misbehave: be
 * down, put every page behind a login, forget a page.
 */

interface SitePage {
  body: Buffer;
  type: string;
  etag: string;
  lastModified: Date;
}

export interface SiteRequest {
  path: string;
  status: number;
  userAgent: string;
  conditional: boolean;
  /** Requests in flight when this one arrived, itself included. */
  inFlight: number;
}

export type SiteMode = 'up' | 'down' | 'pages_down' | 'login_wall';

export interface StaticSite extends HttpFake {
  requests: SiteRequest[];
  /** Adds or replaces a file at `path` (`/robots.txt`); a new body gets new validators. */
  put(path: string, body: string | Buffer, type?: string): void;
  remove(path: string): void;
  /** `down`: every request 503; `pages_down`: all but robots.txt 503; `login_wall`: every page redirects to `/login`. */
  setMode(mode: SiteMode): void;
  /** Paths served, sorted. */
  paths(): string[];
}

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css',
  '.png': 'image/png',
  '.gif': 'image/gif',
  '.pdf': 'application/pdf',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml',
};

/** Serves the files of `folder` under `mount` (`/faq/`), and what the test puts beside them. */
export async function startStaticSite(folder?: string, mount = '/'): Promise<StaticSite> {
  const pages = new Map<string, SitePage>();
  const requests: SiteRequest[] = [];
  let mode: SiteMode = 'up';
  let inFlight = 0;

  const put = (path: string, body: string | Buffer, type?: string, lastModified = new Date()) => {
    const bytes = Buffer.from(body);
    pages.set(path, {
      body: bytes,
      type: type ?? types[extname(path)] ?? 'application/octet-stream',
      etag: `"${createHash('sha1').update(bytes).digest('hex')}"`,
      lastModified: new Date(Math.floor(lastModified.getTime() / 1000) * 1000),
    });
  };
  if (folder) {
    for (const file of filesIn(folder))
      put(`${mount}${relative(folder, file)}`, readFileSync(file), undefined, statSync(file).mtime);
  }

  const app = new Koa();
  app.use(async (ctx, next) => {
    inFlight += 1;
    const arrived = inFlight;
    try {
      await next();
    } finally {
      inFlight -= 1;
      requests.push({
        path: ctx.path,
        status: ctx.status,
        userAgent: ctx.get('user-agent'),
        conditional: Boolean(ctx.get('if-none-match') || ctx.get('if-modified-since')),
        inFlight: arrived,
      });
    }
  });
  app.use(async (ctx) => {
    // Answers take a moment, as a real server's do: requests overlap when a client sends them together.
    await new Promise((resolve) => setTimeout(resolve, 5));
    const robots = ctx.path === '/robots.txt';
    if (mode === 'down' || (mode === 'pages_down' && !robots)) {
      // Come back at once: a crawler honours Retry-After, so its retries cost the test no waiting.
      ctx.set('Retry-After', '0');
      ctx.status = 503;
      ctx.body = 'Service Unavailable';
      return;
    }
    if (mode === 'login_wall' && !robots && ctx.path !== '/login') {
      ctx.redirect(`/login?next=${encodeURIComponent(ctx.path)}`);
      return;
    }
    const page = ctx.path === '/login' ? loginPage : pages.get(ctx.path);
    if (!page) {
      ctx.status = 404;
      ctx.body = 'Not Found';
      return;
    }
    ctx.status = 200;
    ctx.set('ETag', page.etag);
    ctx.lastModified = page.lastModified;
    if (ctx.fresh) {
      ctx.status = 304;
      return;
    }
    ctx.type = page.type;
    ctx.body = page.body;
  });

  const fake = await startHttpFake(app.callback());
  return {
    ...fake,
    requests,
    put: (path, body, type) => put(path, body, type),
    remove: (path) => void pages.delete(path),
    setMode: (next) => void (mode = next),
    paths: () => [...pages.keys()].sort(),
  };
}

const loginPage: SitePage = {
  body: Buffer.from(
    '<!doctype html><html><head><title>Sign in</title></head><body><main><h1>Sign in</h1><p>Please sign in to read the documentation.</p></main></body></html>',
  ),
  type: 'text/html; charset=utf-8',
  etag: '"login"',
  lastModified: new Date(0),
};

function filesIn(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return filesIn(path);
    return statSync(path).isFile() ? [path] : [];
  });
}
