import test, { type ExecutionContext } from 'ava';
import { startFakeShop, type FakeShopOptions } from '#testing/fake-shop.js';
import { localOutbound } from '#testing/outbound.js';
import { createShopApi, nextPageInfo, ShopApiError, type ShopApiOptions } from './shop-api.js';

async function setup(t: ExecutionContext, shopOptions: FakeShopOptions = {}, apiOptions: Partial<ShopApiOptions> = {}) {
  const shop = await startFakeShop(shopOptions);
  t.teardown(() => shop.close());
  const waits: Array<{ status?: number; waitMs: number; attempt: number }> = [];
  const slept: number[] = [];
  const http = localOutbound();
  t.teardown(() => http.close());
  const api = createShopApi({
    baseUrl: `${shop.url}/`,
    http,
    accessToken: shop.accessToken,
    apiVersion: shop.apiVersion,
    sleep: async (ms) => void slept.push(ms),
    onWait: (event) => void waits.push(event),
    ...apiOptions,
  });
  return { shop, api, waits, slept };
}

/** A `fetch` that answers from a list, one answer (or thrown error) per call, and counts the calls. */
function scriptedFetch(answers: Array<Response | Error>) {
  const calls: string[] = [];
  const fetchFn = (async (input: string | URL | Request) => {
    calls.push(String(input));
    const next = answers.shift();
    if (!next) throw new Error('no scripted answer left');
    if (next instanceof Error) throw next;
    return next;
  }) as typeof fetch;
  return { fetchFn, calls };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

test('shop() reads the shop', async (t) => {
  const { api, shop } = await setup(t, { domain: 'harbor.shop.test', currency: 'USD' });
  t.like(await api.shop(), { domain: 'harbor.shop.test', currency: 'USD', name: 'Harbor' });
  t.deepEqual(shop.requests.at(-1), { method: 'GET', path: '/admin/api/2025-01/shop.json', query: {}, status: 200 });
});

test('productsPage follows the cursor through every active product, in id order', async (t) => {
  const { api, shop } = await setup(t);
  const added = shop.addProducts(7);
  const draft = shop.addProducts([{ status: 'draft' }])[0]!;

  const pages: number[][] = [];
  let cursor: string | undefined;
  do {
    const page = await api.productsPage({ limit: 3, ...(cursor ? { cursor } : {}) });
    pages.push(page.products.map((product) => product.id));
    cursor = page.nextCursor;
  } while (cursor);

  t.deepEqual(
    pages,
    [added.slice(0, 3), added.slice(3, 6), added.slice(6)].map((group) => group.map(({ id }) => id)),
  );
  t.false(pages.flat().includes(draft.id));
  const queries = shop.requests.map(({ query }) => query);
  t.deepEqual(queries[0], { limit: '3', status: 'active' });
  t.deepEqual(Object.keys(queries[1]!).sort(), ['limit', 'page_info'], 'later pages send the cursor and no filter');
});

test('a 429 is waited out for exactly its Retry-After, then the call succeeds', async (t) => {
  const { api, shop, waits, slept } = await setup(t);
  shop.addProducts(2);
  shop.rateLimitNext(2, 3);

  const page = await api.productsPage({ limit: 10 });

  t.is(page.products.length, 2);
  t.deepEqual(slept, [3000, 3000]);
  t.deepEqual(waits, [
    { status: 429, waitMs: 3000, attempt: 1 },
    { status: 429, waitMs: 3000, attempt: 2 },
  ]);
  t.deepEqual(
    shop.requests.map(({ status }) => status),
    [429, 429, 200],
  );
});

test('a Retry-After is capped at maxWaitMs', async (t) => {
  const { api, shop, slept } = await setup(t, {}, { maxWaitMs: 1500 });
  shop.rateLimitNext(1, 30);
  await api.shop();
  t.deepEqual(slept, [1500]);
});

test('a Retry-After given as an HTTP date waits until that date', async (t) => {
  const at = new Date(Date.now() + 10_000).toUTCString();
  const { fetchFn } = scriptedFetch([json(429, { errors: 'slow down' }, { 'retry-after': at }), json(200, { shop: { id: 1 } })]);
  const slept: number[] = [];
  const api = createShopApi({
    baseUrl: 'http://shop.invalid',
    accessToken: 't',
    apiVersion: 'v',
    http: localOutbound(fetchFn),
    sleep: async (ms) => void slept.push(ms),
  });
  await api.shop();
  t.is(slept.length, 1);
  t.true(slept[0]! > 8000 && slept[0]! <= 10_000, `waited ${slept[0]} ms`);
});

test('rate limited more than maxRetries times in a row: a retryable rate_limited error', async (t) => {
  const { api, shop, slept } = await setup(t, {}, { maxRetries: 2 });
  shop.rateLimitNext(5);

  const error = await t.throwsAsync(api.shop(), { instanceOf: ShopApiError });

  t.like(error, { code: 'rate_limited', status: 429, retryable: true });
  t.regex(error!.message, /still answered 429 Too Many Requests after 2 retries$/);
  t.notRegex(error!.message, /Exceeded 2 calls per second/, "the shop's body is not repeated");
  t.deepEqual(slept, [2000, 2000]);
  t.is(shop.requests.length, 3, 'the first try and two retries');
});

test('5xx answers back off from one second, doubling, and the call succeeds', async (t) => {
  const { api, shop, waits } = await setup(t);
  shop.failNext(1, 503);
  shop.failNext(1, 502);
  shop.failNext(1, 500);

  t.like(await api.shop(), { domain: 'northwind.shop.test' });
  t.deepEqual(waits, [
    { status: 503, waitMs: 1000, attempt: 1 },
    { status: 502, waitMs: 2000, attempt: 2 },
    { status: 500, waitMs: 4000, attempt: 3 },
  ]);
});

test('backoff is capped at maxWaitMs and gives up after maxRetries with a retryable server_error', async (t) => {
  const { api, shop, slept } = await setup(t, {}, { maxRetries: 4, maxWaitMs: 3000 });
  shop.failNext(10, 503);

  const error = await t.throwsAsync(api.shop(), { instanceOf: ShopApiError });

  t.like(error, { code: 'server_error', status: 503, retryable: true });
  t.deepEqual(slept, [1000, 2000, 3000, 3000]);
});

test('no answer at all is retried, then reported as a retryable unreachable error', async (t) => {
  const { fetchFn, calls } = scriptedFetch([
    new TypeError('fetch failed'),
    new TypeError('fetch failed'),
    new TypeError('fetch failed'),
  ]);
  const slept: number[] = [];
  const api = createShopApi({
    baseUrl: 'http://shop.invalid',
    accessToken: 'secret-token',
    apiVersion: '2025-01',
    http: localOutbound(fetchFn),
    sleep: async (ms) => void slept.push(ms),
    maxRetries: 2,
  });

  const error = await t.throwsAsync(api.shop(), { instanceOf: ShopApiError });

  t.like(error, { code: 'unreachable', status: undefined, retryable: true });
  t.is(calls.length, 3);
  t.deepEqual(slept, [1000, 2000]);
});

test('a shop that never answers in time is given up on: retried, then a retryable unreachable error', async (t) => {
  const { shop, api, slept } = await setup(t, {}, { timeoutMs: 100, maxRetries: 1 });
  shop.addProducts(1);
  shop.setPageDelay(2_000);

  const error = await t.throwsAsync(api.productsPage({ limit: 10 }), { instanceOf: ShopApiError });

  t.like(error, { code: 'unreachable', retryable: true });
  t.deepEqual(slept, [1000], 'the first timeout was retried once');
});

test('a wrong token is a non-retryable unauthorized error with the status, without the shop message or the token', async (t) => {
  const token = 'shpat_wrong_0123456789';
  const { api, shop } = await setup(t, {}, { accessToken: token });

  const error = await t.throwsAsync(api.productsPage({ limit: 5 }), { instanceOf: ShopApiError });

  t.like(error, { code: 'unauthorized', status: 401, retryable: false });
  t.is(error!.message, 'GET /admin/api/2025-01/products.json answered 401 Unauthorized (check the access token and its scopes)');
  t.false(error!.message.includes(token));
  t.is(shop.requests.length, 1, 'not retried');
});

test('error text the shop sends back (the token in it too) never reaches the message', async (t) => {
  const { fetchFn } = scriptedFetch([json(403, { errors: 'token secret-token lacks the read_products scope' })]);
  const api = createShopApi({
    baseUrl: 'http://shop.invalid',
    accessToken: 'secret-token',
    apiVersion: '2025-01',
    http: localOutbound(fetchFn),
  });

  const error = await t.throwsAsync(api.shop(), { instanceOf: ShopApiError });

  t.like(error, { code: 'forbidden', status: 403, retryable: false });
  t.false(error!.message.includes('secret-token'));
  t.notRegex(error!.message, /lacks the read_products scope/);
  t.regex(error!.message, /answered 403 Forbidden/);
});

test('product(id) reads one product; an unknown id is undefined', async (t) => {
  const { api, shop } = await setup(t);
  const [first, second] = shop.addProducts(2);

  t.deepEqual(await api.product(String(second!.id)), second);
  t.deepEqual(await api.product(String(first!.id)), first);
  t.is(await api.product('999'), undefined);
});

test('a limit over the maximum is a non-retryable bad_request', async (t) => {
  const { api } = await setup(t, { maxPageSize: 250 });

  const error = await t.throwsAsync(api.productsPage({ limit: 251 }), { instanceOf: ShopApiError });

  t.like(error, { code: 'bad_request', status: 400, retryable: false });
  t.regex(error!.message, /answered 400 Bad Request$/);
});

test('an unknown API version is not_found for the listing calls', async (t) => {
  const { api } = await setup(t, {}, { apiVersion: '1999-01' });
  const error = await t.throwsAsync(api.shop(), { instanceOf: ShopApiError });
  t.like(error, { code: 'not_found', status: 404, retryable: false });
});

test('a 200 that is not JSON is a non-retryable invalid_response', async (t) => {
  const { fetchFn, calls } = scriptedFetch([new Response('<html>maintenance</html>', { status: 200 })]);
  const api = createShopApi({ baseUrl: 'http://shop.invalid', accessToken: 't', apiVersion: 'v', http: localOutbound(fetchFn) });

  const error = await t.throwsAsync(api.productsPage({ limit: 5 }), { instanceOf: ShopApiError });

  t.like(error, { code: 'invalid_response', retryable: false });
  t.is(calls.length, 1);
});

test('nextPageInfo picks the rel="next" URL out of a Link header', (t) => {
  const base = 'https://shop.example/admin/api/2025-01/products.json';
  t.is(
    nextPageInfo(`<${base}?limit=3&page_info=prev123>; rel="previous", <${base}?limit=3&page_info=next456>; rel="next"`),
    'next456',
  );
  t.is(nextPageInfo(`<${base}?limit=3&page_info=prev123>; rel="previous"`), undefined);
  t.is(nextPageInfo(null), undefined);
});
