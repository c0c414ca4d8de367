import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { createCdnApp, type CdnAppOptions } from './app.js';
import { pointLatestAt, publishRelease } from './build/releases.js';

const apiUrl = 'https://api.example.com';
const filesOf = (version: string) => ({
  'widget.js': `export const version = '${version}'; ${'/* widget */ '.repeat(100)}`,
  'loader.js': `(()=>{window.loaderVersion='${version}';})(); ${'/* loader */ '.repeat(40)}`,
});

interface Cdn {
  dir: string;
  url: string;
  port: number;
}

/** A releases folder with `versions` published in order, served on a port of its own. */
async function serveReleases(
  t: ExecutionContext | undefined,
  versions: string[],
  options: Pick<CdnAppOptions, 'demo'> = {},
): Promise<Cdn & { close(): void }> {
  const dir = mkdtempSync(join(tmpdir(), 'cdn-'));
  for (const version of versions) await publishRelease({ releasesDir: dir, version, files: filesOf(version) });
  const server: Server = createCdnApp({ releasesDir: dir, apiUrl, ...options }).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const port = (server.address() as AddressInfo).port;
  const close = () => {
    server.closeAllConnections();
    server.close();
    rmSync(dir, { recursive: true, force: true });
  };
  t?.teardown(close);
  return { dir, port, url: `http://127.0.0.1:${port}`, close };
}

/** node:http, since fetch normalises paths and decodes bodies: the path goes out as written, the bytes come back raw. */
function raw(
  cdn: Cdn,
  path: string,
  options: { method?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: cdn.port, path, method: options.method ?? 'GET', headers: options.headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

let cdn: Cdn & { close(): void };
test.before(async () => {
  cdn = await serveReleases(undefined, ['v1.0.0', 'v1.1.0']);
});
test.after.always(() => cdn?.close());

test('a pinned release is served immutable, as JavaScript, to any origin', async (t) => {
  const response = await fetch(`${cdn.url}/v1.0.0/widget.js`);
  t.is(response.status, 200);
  t.is(await response.text(), filesOf('v1.0.0')['widget.js']);
  t.is(response.headers.get('content-type'), 'text/javascript; charset=utf-8');
  t.is(response.headers.get('cache-control'), 'public, max-age=31536000, immutable');
  t.is(response.headers.get('access-control-allow-origin'), '*');
  t.is(response.headers.get('cross-origin-resource-policy'), 'cross-origin');
  t.is(response.headers.get('x-content-type-options'), 'nosniff');
  t.is(response.headers.get('vary'), 'Accept-Encoding');
  t.truthy(response.headers.get('last-modified'));
});

test('integrity.json is served as JSON', async (t) => {
  const response = await fetch(`${cdn.url}/v1.1.0/integrity.json`);
  t.is(response.headers.get('content-type'), 'application/json; charset=utf-8');
  t.deepEqual(Object.keys(await response.json()), ['widget.js', 'loader.js']);
});

test('latest follows the symlink and is cached briefly', async (t) => {
  const response = await fetch(`${cdn.url}/latest/loader.js`);
  t.is(response.status, 200);
  t.is(await response.text(), filesOf('v1.1.0')['loader.js']);
  t.is(response.headers.get('cache-control'), 'public, max-age=300');
  t.is(response.headers.get('content-type'), 'text/javascript; charset=utf-8');
  t.is(response.headers.get('access-control-allow-origin'), '*');
});

test('after a rollback latest serves the earlier release', async (t) => {
  const own = await serveReleases(t, ['v1.0.0', 'v1.1.0']);
  t.is(await (await fetch(`${own.url}/latest/widget.js`)).text(), filesOf('v1.1.0')['widget.js']);
  await pointLatestAt({ releasesDir: own.dir, version: 'v1.0.0' });
  t.is(await (await fetch(`${own.url}/latest/widget.js`)).text(), filesOf('v1.0.0')['widget.js']);
  t.is(await (await fetch(`${own.url}/v1.1.0/widget.js`)).text(), filesOf('v1.1.0')['widget.js'], 'pinned stays');
});

test('latest answers 404 while nothing is published', async (t) => {
  const empty = await serveReleases(t, []);
  const response = await fetch(`${empty.url}/latest/widget.js`);
  t.is(response.status, 404);
  t.is((await response.json()).error.code, 'not_found');
});

test('the precompressed sibling is sent to a client that accepts it', async (t) => {
  const folder = join(cdn.dir, 'v1.0.0');
  const plain = readFileSync(join(folder, 'widget.js'));

  const br = await raw(cdn, '/v1.0.0/widget.js', { headers: { 'Accept-Encoding': 'gzip, deflate, br' } });
  t.is(br.status, 200);
  t.is(br.headers['content-encoding'], 'br');
  t.deepEqual(br.body, readFileSync(join(folder, 'widget.js.br')));
  t.is(br.headers['content-type'], 'text/javascript; charset=utf-8');
  t.is(br.headers.vary, 'Accept-Encoding');

  const gzip = await raw(cdn, '/latest/loader.js', { headers: { 'Accept-Encoding': 'gzip' } });
  t.is(gzip.headers['content-encoding'], 'gzip');
  t.deepEqual(gzip.body, readFileSync(join(cdn.dir, 'v1.1.0', 'loader.js.gz')));
  t.is(gzip.headers['cache-control'], 'public, max-age=300');

  const identity = await raw(cdn, '/v1.0.0/widget.js', { headers: { 'Accept-Encoding': 'identity' } });
  t.is(identity.headers['content-encoding'], undefined);
  t.deepEqual(identity.body, plain);
  const none = await raw(cdn, '/v1.0.0/widget.js');
  t.is(none.headers['content-encoding'], undefined);
  t.deepEqual(none.body, plain);
});

test('HEAD answers the headers without a body', async (t) => {
  const head = await raw(cdn, '/v1.0.0/widget.js', { method: 'HEAD' });
  t.is(head.status, 200);
  t.is(head.headers['content-length'], String(Buffer.byteLength(filesOf('v1.0.0')['widget.js'])));
  t.is(head.headers['cache-control'], 'public, max-age=31536000, immutable');
  t.is(head.body.byteLength, 0);
});

test('service.json tells the widget where the REST API is', async (t) => {
  const response = await fetch(`${cdn.url}/service.json`);
  t.is(response.status, 200);
  t.deepEqual(await response.json(), { apiUrl });
  t.regex(response.headers.get('content-type') ?? '', /^application\/json/);
  t.is(response.headers.get('cache-control'), 'public, max-age=300');
  t.is(response.headers.get('access-control-allow-origin'), '*');
});

test('the demo page embeds the newest release, and only where it is switched on', async (t) => {
  const withDemo = await serveReleases(t, ['v1.0.0'], { demo: { questions: [] } });
  const response = await fetch(`${withDemo.url}/demo`);
  t.is(response.status, 200);
  t.regex(response.headers.get('content-type') ?? '', /^text\/html/);
  const page = await response.text();
  t.regex(page, /<script type="module" src="\/latest\/widget.js"><\/script>/);
  t.false(page.includes('<ul id="suggested-questions">'), 'no questions to suggest, none shown');
  t.is((await fetch(`${cdn.url}/demo`)).status, 404, 'off by default (production)');
});

test('the demo page suggests the questions it was given, as text', async (t) => {
  const questions = ['How much does the Team plan cost?', 'Is <b>this</b> "markup" & safe?'];
  const withDemo = await serveReleases(t, ['v1.0.0'], { demo: { questions } });
  const page = await (await fetch(`${withDemo.url}/demo`)).text();
  t.true(page.includes('<li><q>How much does the Team plan cost?</q></li>'));
  t.true(page.includes('<li><q>Is &lt;b&gt;this&lt;/b&gt; &quot;markup&quot; &amp; safe?</q></li>'));
  t.false(page.includes('<b>this</b>'));
});

test('a preflight is answered for any origin', async (t) => {
  const response = await fetch(`${cdn.url}/v1.0.0/widget.js`, {
    method: 'OPTIONS',
    headers: { Origin: 'https://shop.example', 'Access-Control-Request-Method': 'GET' },
  });
  t.is(response.status, 204);
  t.is(response.headers.get('access-control-allow-origin'), '*');
  t.is(response.headers.get('access-control-allow-methods'), 'GET, HEAD');
});

test('other methods are refused with 405 and Allow', async (t) => {
  for (const method of ['POST', 'PUT', 'DELETE']) {
    const response = await fetch(`${cdn.url}/v1.0.0/widget.js`, { method });
    t.is(response.status, 405, method);
    t.is(response.headers.get('allow'), 'GET, HEAD, OPTIONS');
    t.is(response.headers.get('access-control-allow-origin'), '*');
    t.is((await response.json()).error.code, 'method_not_allowed');
  }
});

test('anything but a release file is 404 in the error shape, with CORS', async (t) => {
  writeFileSync(join(cdn.dir, 'README.md'), 'not served');
  const paths = [
    '/v9.9.9/widget.js',
    '/v1.0.0/missing.js',
    '/v1.0.0/widget.js.br',
    '/v1.0.0/widget.js.gz',
    '/latest/loader.js.gz',
    '/v1.0.0/..%2f..%2fpackage.json',
    '/v1.0.0/..%2fv1.1.0%2fwidget.js',
    '/latest/../x',
    '/latest/../v1.0.0/widget.js',
    '/v1.0.0/../../package.json',
    '/v1.0.0/.hidden.js',
    '/latest.tmp-abc/widget.js',
    '/v1.0.0/',
    '/v1.0.0',
    '/README.md',
    '/latest',
    '/',
  ];
  for (const path of paths) {
    for (const encoding of ['br', 'identity']) {
      const response = await raw(cdn, path, { headers: { 'Accept-Encoding': encoding } });
      t.is(response.status, 404, path);
      t.is(response.headers['access-control-allow-origin'], '*', path);
      t.is(response.headers['content-encoding'], undefined, path);
      t.is(response.headers['content-type'], 'application/json; charset=utf-8', path);
      const body = JSON.parse(response.body.toString('utf8'));
      t.is(body.error.code, 'not_found', path);
      t.is(typeof body.error.message, 'string', path);
      t.false(body.error.message.includes(cdn.dir), 'no file system paths');
    }
  }
});

test('/health answers', async (t) => {
  const response = await fetch(`${cdn.url}/health`);
  t.is(response.status, 200);
  t.deepEqual(await response.json(), { status: 'ok' });
});
