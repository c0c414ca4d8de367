import test from 'ava';
import { transform } from 'esbuild';
import Koa from 'koa';
import type { ApiState } from '#api/state.js';
import { startHttpFake, type HttpFake } from '#testing/http-fake.js';
import { createAgentPageRouter } from './page.js';

/*
 * The page's three files as the router serves them, without a browser or a stack: the script must
 * reach the browser as plain JavaScript (page.test.ts covers what the page then does).
 */

let server: HttpFake;
test.before(async () => {
  const app = new Koa<ApiState>();
  for (const middleware of createAgentPageRouter().middleware()) app.use(middleware);
  server = await startHttpFake(app.callback());
});
test.after.always(() => server?.close());

async function get(path: string) {
  const response = await fetch(server.url + path);
  return { status: response.status, headers: response.headers, text: await response.text() };
}

test('the script is served as JavaScript, its types stripped', async (t) => {
  const script = await get('/agent/app.js');
  t.is(script.status, 200);
  t.is(script.headers.get('content-type'), 'text/javascript; charset=utf-8');
  t.regex(script.headers.get('content-security-policy') ?? '', /script-src 'self'/);
  // esbuild's JavaScript loader rejects what only TypeScript allows (annotations, interfaces, casts).
  await t.notThrowsAsync(transform(script.text, { loader: 'js', format: 'esm' }));
  t.regex(script.text, /sessionStorage\.getItem\(tokenKey\)/);
});

test('the page and its styles come with their types and the same policy', async (t) => {
  const page = await get('/agent');
  t.is(page.status, 200);
  t.is(page.headers.get('content-type'), 'text/html; charset=utf-8');
  t.regex(page.text, /<script type="module" src="\/agent\/app\.js"><\/script>/);
  const styles = await get('/agent/app.css');
  t.is(styles.status, 200);
  t.is(styles.headers.get('content-type'), 'text/css; charset=utf-8');
  t.regex(styles.text, /\.message\.visitor/);
  for (const response of [page, styles]) {
    t.is(response.headers.get('content-security-policy'), page.headers.get('content-security-policy'));
  }
  t.regex(page.headers.get('content-security-policy') ?? '', /^default-src 'none'; /);
});
