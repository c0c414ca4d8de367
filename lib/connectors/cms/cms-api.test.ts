import test, { type ExecutionContext } from 'ava';
import { startFakeCms, type FakeCmsOptions } from '#testing/fake-cms.js';
import { localOutbound } from '#testing/outbound.js';
import { CmsApiError, createCmsApi, type CmsApiOptions } from './cms-api.js';

async function setup(t: ExecutionContext, fakeOptions: FakeCmsOptions = {}, apiOptions: Partial<CmsApiOptions> = {}) {
  const cms = await startFakeCms(fakeOptions);
  t.teardown(() => cms.close());
  const waits: Array<{ status?: number; waitMs: number; attempt: number }> = [];
  const slept: number[] = [];
  const http = localOutbound();
  t.teardown(() => http.close());
  const api = createCmsApi({
    siteUrl: cms.url,
    http,
    sleep: async (ms) => void slept.push(ms),
    onWait: (event) => void waits.push(event),
    ...apiOptions,
  });
  return { cms, api, waits, slept };
}

test('lists every page of published posts with the totals from the headers', async (t) => {
  const { cms, api } = await setup(t);
  const posts = cms.addPosts(23);
  cms.addPosts([{ status: 'draft' }]);
  cms.addPages(2);

  const pages = [];
  for (let page = 1; page <= 3; page++) pages.push(await api.list('posts', { page, perPage: 10, orderBy: 'id' }));

  t.deepEqual(
    pages.map(({ total, totalPages, entries }) => ({ total, totalPages, count: entries.length })),
    [
      { total: 23, totalPages: 3, count: 10 },
      { total: 23, totalPages: 3, count: 10 },
      { total: 23, totalPages: 3, count: 3 },
    ],
  );
  t.deepEqual(
    pages.flatMap(({ entries }) => entries.map(({ id }) => id)),
    posts.map(({ id }) => id),
  );
  t.deepEqual(cms.requests[0]?.query, {
    page: '1',
    per_page: '10',
    orderby: 'id',
    order: 'asc',
    status: 'publish',
    _embed: 'author,wp:term',
  });
  t.is(cms.requests[0]?.path, '/wp-json/wp/v2/posts');
  // `_embed` was asked for, so the names the item mapping needs arrive with the entries.
  t.truthy(pages[0]?.entries[0]?._embedded?.author?.[0]?.name);
  t.is(pages[0]?.entries[0]?._embedded?.['wp:term']?.length, 2);
});

test('lists pages from their own route', async (t) => {
  const { cms, api } = await setup(t);
  cms.addPosts(3);
  const pages = cms.addPages(2);
  const listed = await api.list('pages', { page: 1, perPage: 10, orderBy: 'id' });
  t.deepEqual(
    listed.entries.map(({ id, type }) => ({ id, type })),
    pages.map(({ id }) => ({ id, type: 'page' })),
  );
  t.is(cms.requests[0]?.path, '/wp-json/wp/v2/pages');
});

test('a page beyond the last is an empty page, not an error', async (t) => {
  const { cms, api } = await setup(t);
  cms.addPosts(5);
  const beyond = await api.list('posts', { page: 3, perPage: 5, orderBy: 'id' });
  t.deepEqual(beyond, { entries: [], total: 0, totalPages: 0 });
  t.is(cms.requests[0]?.status, 400);

  const empty = await api.list('pages', { page: 1, perPage: 5, orderBy: 'id' });
  t.deepEqual(empty, { entries: [], total: 0, totalPages: 0 });
});

test('modifiedAfter lists only the entries modified after it, by modification time', async (t) => {
  const { cms, api } = await setup(t);
  const posts = cms.addPosts(6);
  const cursor = posts[0]!.modified_gmt + 'Z';
  cms.updateEntry('posts', posts[4]!.id, { title: { rendered: 'Changed later' } });
  cms.updateEntry('posts', posts[1]!.id, { title: { rendered: 'Changed last' } });

  const changed = await api.list('posts', { page: 1, perPage: 10, orderBy: 'modified', modifiedAfter: cursor });
  t.deepEqual(
    changed.entries.map(({ id }) => id),
    [posts[4]!.id, posts[1]!.id],
  );
  t.is(changed.total, 2);
  t.is(cms.requests[0]?.query.modified_after, cursor);
  t.is(cms.requests[0]?.query.orderby, 'modified');
});

test('include lists only the given ids', async (t) => {
  const { cms, api } = await setup(t);
  const posts = cms.addPosts(8);
  const wanted = [posts[6]!.id, posts[2]!.id];
  const listed = await api.list('posts', { page: 1, perPage: 10, orderBy: 'id', include: wanted });
  t.deepEqual(
    listed.entries.map(({ id }) => id),
    [posts[2]!.id, posts[6]!.id],
  );
  t.is(cms.requests[0]?.query.include, wanted.join(','));
});

test('an empty include matches nothing without asking the CMS', async (t) => {
  const { cms, api } = await setup(t);
  cms.addPosts(3);
  t.deepEqual(await api.list('posts', { page: 1, perPage: 10, orderBy: 'id', include: [] }), {
    entries: [],
    total: 0,
    totalPages: 0,
  });
  t.is(cms.requests.length, 0);
});

test('a 429 waits what Retry-After says, then succeeds', async (t) => {
  const { cms, api, waits, slept } = await setup(t);
  cms.addPosts(2);
  cms.rateLimitNext(2, 7);
  const listed = await api.list('posts', { page: 1, perPage: 10, orderBy: 'id' });
  t.is(listed.entries.length, 2);
  t.deepEqual(slept, [7000, 7000]);
  t.deepEqual(waits, [
    { status: 429, waitMs: 7000, attempt: 1 },
    { status: 429, waitMs: 7000, attempt: 2 },
  ]);
  t.deepEqual(
    cms.requests.map(({ status }) => status),
    [429, 429, 200],
  );
});

test('a Retry-After longer than maxWaitMs is capped', async (t) => {
  const { cms, api, slept } = await setup(t, {}, { maxWaitMs: 2500 });
  cms.rateLimitNext(1, 3600);
  await api.list('posts', { page: 1, perPage: 10, orderBy: 'id' });
  t.deepEqual(slept, [2500]);
});

test('a Retry-After given as an HTTP date is waited until that date', async (t) => {
  const retryAt = new Date(Date.now() + 20_000).toUTCString();
  const responses = [
    new Response('{"code":"rest_too_many_requests","message":"Too many requests.","data":{"status":429}}', {
      status: 429,
      headers: { 'retry-after': retryAt },
    }),
    new Response('[]', { status: 200, headers: { 'x-wp-total': '0', 'x-wp-totalpages': '0' } }),
  ];
  const slept: number[] = [];
  const api = createCmsApi({
    siteUrl: 'https://blog.example',
    http: localOutbound(async () => responses.shift()!),
    sleep: async (ms) => void slept.push(ms),
  });
  await api.list('posts', { page: 1, perPage: 10, orderBy: 'id' });
  t.is(slept.length, 1);
  t.true(slept[0]! > 15_000 && slept[0]! <= 20_000, `waited ${slept[0]} ms`);
});

test('rate limits past maxRetries end in a retryable error', async (t) => {
  const { cms, api, slept } = await setup(t, {}, { maxRetries: 3 });
  cms.rateLimitNext(10, 1);
  const error = await t.throwsAsync(api.list('posts', { page: 1, perPage: 10, orderBy: 'id' }), { instanceOf: CmsApiError });
  t.like(error, { status: 429, code: 'rate_limited', retryable: true });
  t.deepEqual(slept, [1000, 1000, 1000]);
  t.is(cms.requests.length, 4);
});

test('server errors are retried with a doubling backoff', async (t) => {
  const { cms, api, waits } = await setup(t);
  cms.addPosts(1);
  cms.failNext(1, 503);
  cms.failNext(1, 502);
  cms.failNext(1, 500);
  const listed = await api.list('posts', { page: 1, perPage: 10, orderBy: 'id' });
  t.is(listed.entries.length, 1);
  t.deepEqual(waits, [
    { status: 503, waitMs: 1000, attempt: 1 },
    { status: 502, waitMs: 2000, attempt: 2 },
    { status: 500, waitMs: 4000, attempt: 3 },
  ]);
});

test('server errors past the default 5 retries end in a retryable server_error', async (t) => {
  const { cms, api, slept } = await setup(t, {}, { maxWaitMs: 5000 });
  cms.failNext(6, 503);
  const error = await t.throwsAsync(api.list('posts', { page: 1, perPage: 10, orderBy: 'id' }), { instanceOf: CmsApiError });
  t.like(error, { status: 503, code: 'server_error', retryable: true });
  t.deepEqual(slept, [1000, 2000, 4000, 5000, 5000]);
});

test("an error's body never reaches the message, which the tenant sees: the status does", async (t) => {
  const { cms, api } = await setup(t, {}, { maxRetries: 1 });
  cms.failNext(2, 500);
  const error = await t.throwsAsync(api.list('posts', { page: 1, perPage: 10, orderBy: 'id' }), { instanceOf: CmsApiError });
  t.like(error, { status: 500, code: 'server_error', retryable: true });
  t.is(error.message, 'GET posts page 1: the CMS answered 500 Internal Server Error (gave up after 1 retry)');
});

test('an unreachable site is retried, then a retryable error without a status', async (t) => {
  const cms = await startFakeCms();
  const siteUrl = cms.url;
  await cms.close();
  const slept: number[] = [];
  const api = createCmsApi({ siteUrl, http: localOutbound(), maxRetries: 2, sleep: async (ms) => void slept.push(ms) });
  const error = await t.throwsAsync(api.list('posts', { page: 1, perPage: 10, orderBy: 'id' }), { instanceOf: CmsApiError });
  t.like(error, { status: undefined, code: 'unreachable', retryable: true });
  t.deepEqual(slept, [1000, 2000]);
});

test('a request the CMS refuses fails at once, with its code kept inside and its status in the message', async (t) => {
  const { cms, api, slept } = await setup(t);
  const error = await t.throwsAsync(api.list('posts', { page: 1, perPage: 500, orderBy: 'id' }), { instanceOf: CmsApiError });
  t.like(error, { status: 400, code: 'rest_invalid_param', retryable: false });
  t.is(error.message, 'GET posts page 1: the CMS answered 400 Bad Request');
  t.notRegex(error.message, /per_page|Invalid parameter/);
  t.deepEqual(slept, []);
  t.is(cms.requests.length, 1);
});

test('a 200 that is not a list of entries is a non-retryable invalid_response', async (t) => {
  const api = createCmsApi({
    siteUrl: 'https://blog.example',
    http: localOutbound(async () => new Response('<!doctype html><title>Blog</title>', { status: 200 })),
  });
  const error = await t.throwsAsync(api.list('posts', { page: 1, perPage: 10, orderBy: 'id' }), { instanceOf: CmsApiError });
  t.like(error, { code: 'invalid_response', retryable: false });
});

test('requests go under the REST root of a site in a subfolder', async (t) => {
  const urls: string[] = [];
  const api = createCmsApi({
    siteUrl: 'https://example.com/blog/',
    http: localOutbound(async (input: string | URL | Request) => {
      urls.push(String(input));
      return new Response('[]', { status: 200, headers: { 'x-wp-total': '0', 'x-wp-totalpages': '0' } });
    }),
  });
  await api.list('pages', { page: 2, perPage: 50, orderBy: 'modified', modifiedAfter: '2024-05-01T08:30:00.000Z' });
  const url = new URL(urls[0]!);
  t.is(url.origin + url.pathname, 'https://example.com/blog/wp-json/wp/v2/pages');
  t.is(url.searchParams.get('modified_after'), '2024-05-01T08:30:00.000Z');
  t.is(url.searchParams.get('_embed'), 'author,wp:term');
});

test('a site URL with credentials or without http(s) is refused up front', (t) => {
  for (const siteUrl of ['https://admin:hunter2@blog.example', 'ftp://blog.example', 'blog.example']) {
    const error = t.throws(() => createCmsApi({ siteUrl, http: localOutbound() }), { instanceOf: CmsApiError });
    t.like(error, { code: 'invalid_site_url', retryable: false });
    t.notRegex(error.message, /hunter2/);
  }
});

test('Basic auth is sent when configured; a wrong password fails without retry and never shows', async (t) => {
  const password = 'abcd EFGH 1234 ijkl 5678 MNOP';
  const fakeOptions = { auth: { username: 'editor', password } };

  const right = await setup(t, fakeOptions, { username: 'editor', applicationPassword: password });
  right.cms.addPosts(2);
  t.is((await right.api.list('posts', { page: 1, perPage: 10, orderBy: 'id' })).total, 2);

  const anonymous = await setup(t, fakeOptions);
  const refused = await t.throwsAsync(anonymous.api.list('posts', { page: 1, perPage: 10, orderBy: 'id' }), {
    instanceOf: CmsApiError,
  });
  t.like(refused, { status: 401, code: 'rest_not_logged_in', retryable: false });

  const wrongPassword = 'zzzz EFGH 1234 ijkl 5678 MNOP';
  const wrong = await setup(t, fakeOptions, { username: 'editor', applicationPassword: wrongPassword });
  const error = await t.throwsAsync(wrong.api.list('posts', { page: 1, perPage: 10, orderBy: 'id' }), {
    instanceOf: CmsApiError,
  });
  t.like(error, { status: 401, code: 'incorrect_password', retryable: false });
  t.is(wrong.cms.requests.length, 1);
  t.false(error.message.includes(wrongPassword), error.message);
  t.false(JSON.stringify(error).includes(wrongPassword));
});

test('the password is redacted even when the CMS or the network layer quotes it', async (t) => {
  const password = 'quoted-app-password';
  const api = createCmsApi({
    siteUrl: 'https://blog.example',
    username: 'editor',
    applicationPassword: password,
    maxRetries: 0,
    http: localOutbound(
      async () =>
        new Response(
          JSON.stringify({ code: 'rest_forbidden', message: `Bad credentials editor:${password}`, data: { status: 403 } }),
          {
            status: 403,
          },
        ),
    ),
  });
  const error = await t.throwsAsync(api.list('posts', { page: 1, perPage: 10, orderBy: 'id' }), { instanceOf: CmsApiError });
  t.like(error, { status: 403, code: 'rest_forbidden' });
  t.false(error.message.includes(password), error.message);
  t.notRegex(error.message, /Bad credentials/);
  t.regex(error.message, /403 Forbidden \(check the username and application password\)/);

  const failing = createCmsApi({
    siteUrl: 'https://blog.example',
    username: 'editor',
    applicationPassword: password,
    maxRetries: 0,
    http: localOutbound(async () => {
      throw new TypeError(`fetch failed for ${password}`);
    }),
  });
  const network = await t.throwsAsync(failing.list('posts', { page: 1, perPage: 10, orderBy: 'id' }), {
    instanceOf: CmsApiError,
  });
  t.like(network, { code: 'unreachable', retryable: true });
  t.false(network.message.includes(password), network.message);
  t.is(network.cause, undefined);
});
