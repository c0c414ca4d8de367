import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { createCdnApp, newestRelease } from './app.js';

let dir: string;
let server: Server;
let url: string;

test.before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cdn-'));
  for (const version of ['v1.2.0', 'v1.10.0', 'v1.9.3']) {
    mkdirSync(join(dir, version));
    writeFileSync(join(dir, version, 'widget.js'), `export const version = '${version}';`);
  }
  mkdirSync(join(dir, 'not-a-version'));
  server = createCdnApp({ releasesDir: dir }).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

test.after.always(() => {
  server?.close();
  rmSync(dir, { recursive: true, force: true });
});

test('a pinned release is served immutable, to any origin', async (t) => {
  const response = await fetch(`${url}/v1.9.3/widget.js`);
  t.is(response.status, 200);
  t.is(await response.text(), "export const version = 'v1.9.3';");
  t.regex(response.headers.get('content-type') ?? '', /javascript/);
  t.is(response.headers.get('cache-control'), 'max-age=31536000,immutable');
  t.is(response.headers.get('access-control-allow-origin'), '*');
});

test('latest serves the newest release by semantic version, briefly cached', async (t) => {
  t.is(await newestRelease(dir), 'v1.10.0');
  const response = await fetch(`${url}/latest/widget.js`);
  t.is(await response.text(), "export const version = 'v1.10.0';");
  t.is(response.headers.get('cache-control'), 'max-age=60');
});

test('anything else is 404 in the error shape', async (t) => {
  for (const path of ['/v9.9.9/widget.js', '/v1.9.3/missing.js', '/v1.9.3/..%2f..%2fpackage.json', '/not-a-version/x.js', '/']) {
    const response = await fetch(`${url}${path}`);
    t.is(response.status, 404, path);
    t.is((await response.json()).error.code, 'not_found', path);
  }
});
