import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type ConsoleMessage, type Page } from 'playwright-core';
import { closeServer } from '#platform/close-server.js';
import { withTimeout } from '#platform/time-limit.js';
import { createCdnApp } from '#widget-cdn/app.js';
import { bundleWidget } from '#widget-cdn/build/bundle.js';
import { publishRelease } from '#widget-cdn/build/releases.js';

/**
 * How long a browser test waits for what the service does behind the page (an answer streamed, a status
 * shown, a tick moved): sized for this 2-core machine running the whole suite, where an answer that
 * takes 8 s alone has taken over 30 s. A wait whose condition holds ends at once.
 */
export const serviceWaitMs = 60_000;

export interface LaunchedChromium {
  browser: Browser;
  /** The browser's main process. */
  process: ChildProcess;
  /** Closes the browser and ends its process, by force if it will not close. */
  close(): Promise<void>;
}

/**
 * Debian's Chromium, headless, with the switches this machine's closed network needs (no background
 * connections to Google's hosts). Every `*.test` host name resolves to this machine, so pages can be
 * served from sites of their own (`http://shop.test:<port>`), as on a tenant's real domain: plain
 * http, not a secure context, like many a small shop. `npm test` installs the package when missing.
 * It runs as a browser server whose process the test holds, so closing can never leave a Chromium
 * behind that keeps the test process from exiting.
 */
export async function launchChromium(): Promise<LaunchedChromium> {
  const server = await chromium.launchServer({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    timeout: 60_000,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--host-resolver-rules=MAP *.test 127.0.0.1',
    ],
  });
  const browser = await chromium.connect(server.wsEndpoint(), { timeout: 30_000 });
  return {
    browser,
    process: server.process(),
    async close() {
      // A graceful close waits for every Chromium process to let go of its pipes, which a stuck
      // renderer or helper may never do: past the limit the whole process group is killed.
      const graceful = browser
        .close()
        .catch(() => undefined)
        .then(() => server.close());
      await withTimeout(graceful, 10_000, 'Chromium did not close').catch(() => server.kill());
    },
  };
}

/** Where browser tests leave what a person should look at (screenshots): `.data/test/artifacts/`. */
export function artifactsDir(): string {
  // `npm test` points DATA_DIR at its own data folder (`.data/test`).
  const dir = join(process.env.DATA_DIR || join('.data', 'test'), 'artifacts');
  mkdirSync(dir, { recursive: true });
  return dir;
}

export interface WidgetFiles {
  /** `{cdn_url}`: the widget file server over a release built from the current source. */
  url: string;
  version: string;
  integrity: Record<string, string>;
  close(): Promise<void>;
}

/**
 * Builds the widget from the current source, publishes it into a release folder of its own and
 * serves it with the real widget file server, telling the widget the API is at `apiUrl`.
 */
export async function serveWidgetFiles(apiUrl: string, version = 'v1.0.0'): Promise<WidgetFiles> {
  const releasesDir = mkdtempSync(join(tmpdir(), 'widget-releases-'));
  const files = await bundleWidget({ version });
  const release = await publishRelease({ releasesDir, version, files });
  const server = await listen(createCdnApp({ releasesDir, apiUrl }).callback());
  return {
    url: urlOf(server, '127.0.0.1'),
    version: release.version,
    integrity: release.integrity,
    async close() {
      await closeServer(server);
      rmSync(releasesDir, { recursive: true, force: true });
    },
  };
}

export interface HostPages {
  /** The page at `path` on the site `host` (any `*.test` name; all sites serve the same pages). */
  url(path: string, host?: string): string;
  /** Serves `html` at `path` (replacing what was there). */
  page(path: string, html: string): void;
  close(): Promise<void>;
}

/** A tenant's web site: static pages on origins other than the API's and the widget files'. */
export async function serveHostPages(): Promise<HostPages> {
  const pages = new Map<string, string>();
  const server = await listen((request, response) => {
    const html = pages.get(new URL(request.url ?? '/', 'http://host').pathname);
    response.writeHead(html === undefined ? 404 : 200, {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
    });
    response.end(html ?? 'not found');
  });
  return {
    url: (path, host = 'shop.test') => `${urlOf(server, host)}${path}`,
    page: (path, html) => void pages.set(path, html),
    close: () => closeServer(server),
  };
}

/** A page whose console messages are kept, for asserting on what the widget reports. */
export async function pageWithConsole(browser: Browser, options: { locale?: string } = {}) {
  const context = await browser.newContext({ locale: options.locale ?? 'en-US', viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const console: ConsoleMessage[] = [];
  page.on('console', (message) => void console.push(message));
  return {
    page,
    console,
    consoleText: (type?: string) =>
      console
        .filter((message) => !type || message.type() === type)
        .map((message) => message.text())
        .join('\n'),
    close: () => context.close(),
  };
}

export type ConsolePage = Awaited<ReturnType<typeof pageWithConsole>>;
export type { Page };

function listen(handler: RequestListener): Promise<Server> {
  return new Promise((resolve) => {
    const server = createServer(handler);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

function urlOf(server: Server, host: string): string {
  return `http://${host}:${(server.address() as AddressInfo).port}`;
}
