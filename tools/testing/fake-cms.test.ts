import test, { type ExecutionContext } from 'ava';
import type { CmsEntry } from '#connectors/cms/cms-types.js';
import { fakeCmsAuthors, startFakeCms, type FakeCmsOptions } from './fake-cms.js';

async function setup(t: ExecutionContext, options?: FakeCmsOptions) {
  const cms = await startFakeCms(options);
  t.teardown(() => cms.close());
  const get = async (path: string, headers: Record<string, string> = {}) => {
    const response = await fetch(`${cms.url}${path}`, { headers });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: JSON.parse(text) as any };
  };
  return { cms, get };
}

const ids = (entries: CmsEntry[]) => entries.map(({ id }) => id);

test('ids increase across posts and pages; generated entries are published and varied', async (t) => {
  const { cms } = await setup(t);
  const posts = cms.addPosts(6);
  const pages = cms.addPages(2);
  const more = cms.addPosts(1);
  t.deepEqual(ids([...posts, ...pages, ...more]), [1, 2, 3, 4, 5, 6, 7, 8, 9]);
  t.true(posts.every((post) => post.type === 'post' && post.status === 'publish'));
  t.true(pages.every((page) => page.type === 'page' && page.parent === 0 && page.categories === undefined));
  t.true(new Set(posts.map((post) => post.author)).size > 1);
  t.true(new Set(posts.map((post) => post.categories?.join())).size > 1);
  t.true(new Set(posts.map((post) => post.slug)).size === posts.length);
  t.regex(posts[0]!.content.rendered, /<p>.*&amp;|&nbsp;|&#8217;/);
  t.regex(posts[0]!.excerpt.rendered, /^<p>/);
  t.is(posts[0]!.link, `${cms.url}/${posts[0]!.slug}/`);
  t.regex(posts[0]!.modified_gmt, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
  // Deterministic: a second site generates the same content.
  const other = await setup(t);
  const again = other.cms.addPosts(6);
  t.deepEqual(
    again.map(({ title, content, slug }) => ({ title, content: content.rendered.replaceAll(other.cms.url, ''), slug })),
    posts.map(({ title, content, slug }) => ({ title, content: content.rendered.replaceAll(cms.url, ''), slug })),
  );
});

test('partial entries keep their fields; the rest is generated', async (t) => {
  const { cms } = await setup(t);
  const [post] = cms.addPosts([{ id: 40, title: { rendered: 'Hello &amp; welcome' }, status: 'draft' }]);
  t.like(post, { id: 40, type: 'post', status: 'draft', slug: 'hello-welcome', title: { rendered: 'Hello &amp; welcome' } });
  t.is(cms.addPages(1)[0]?.id, 41);
  t.throws(() => cms.addPages([{ id: 40 }]), { message: /id 40 is taken/ });
});

test('lists by date, newest first, 10 a page, by default, with the paging headers', async (t) => {
  const { cms, get } = await setup(t);
  cms.addPosts(23);
  const first = await get('/wp-json/wp/v2/posts');
  t.is(first.status, 200);
  t.is(first.headers.get('x-wp-total'), '23');
  t.is(first.headers.get('x-wp-totalpages'), '3');
  t.deepEqual(
    first.body.map((entry: CmsEntry) => entry.id),
    [23, 22, 21, 20, 19, 18, 17, 16, 15, 14],
  );
  t.is(first.headers.get('link'), `<${cms.url}/wp-json/wp/v2/posts?page=2>; rel="next"`);
  t.is(first.body[0]._embedded, undefined);

  const middle = await get('/wp-json/wp/v2/posts?per_page=10&page=2&orderby=id&order=asc');
  t.deepEqual(
    middle.body.map((entry: CmsEntry) => entry.id),
    [11, 12, 13, 14, 15, 16, 17, 18, 19, 20],
  );
  const link = middle.headers.get('link') ?? '';
  t.true(link.includes(`<${cms.url}/wp-json/wp/v2/posts?per_page=10&page=1&orderby=id&order=asc>; rel="prev"`), link);
  t.true(link.includes(`<${cms.url}/wp-json/wp/v2/posts?per_page=10&page=3&orderby=id&order=asc>; rel="next"`), link);

  const last = await get('/wp-json/wp/v2/posts?per_page=10&page=3&orderby=id&order=asc');
  t.deepEqual(
    last.body.map((entry: CmsEntry) => entry.id),
    [21, 22, 23],
  );
  t.false((last.headers.get('link') ?? '').includes('rel="next"'));
});

test('orders by modification time, ties by id, and updates move an entry last', async (t) => {
  const { cms, get } = await setup(t);
  const posts = cms.addPosts(4);
  const updated = cms.updateEntry('posts', posts[1]!.id, { title: { rendered: 'Updated' } });
  t.is(updated.title.rendered, 'Updated');
  t.true(updated.modified_gmt > posts[3]!.modified_gmt);
  const asc = await get('/wp-json/wp/v2/posts?orderby=modified&order=asc');
  t.deepEqual(
    asc.body.map((entry: CmsEntry) => entry.id),
    [1, 3, 4, 2],
  );
  const desc = await get('/wp-json/wp/v2/posts?orderby=modified');
  t.deepEqual(
    desc.body.map((entry: CmsEntry) => entry.id),
    [2, 4, 3, 1],
  );
});

test('updates are stamped strictly after every other modification, even one in the future', async (t) => {
  const { cms } = await setup(t);
  const [future] = cms.addPosts([{ modified_gmt: '2099-01-01T00:00:00' }]);
  const [other] = cms.addPages(1);
  t.is(other!.modified_gmt, '2099-01-01T00:00:01');
  const updated = cms.updateEntry('posts', future!.id, { modified_gmt: '2000-01-01T00:00:00' });
  t.is(updated.modified_gmt, '2099-01-01T00:00:02');
  // Not before now either, so a wall-clock cursor taken before a write finds it.
  const { cms: fresh } = await setup(t);
  const before = Date.now();
  const [entry] = fresh.addPosts(1);
  t.true(Date.parse(`${entry!.modified_gmt}Z`) >= Math.floor(before / 1000) * 1000);
});

test('modified_after is strictly after', async (t) => {
  const { cms, get } = await setup(t);
  const posts = cms.addPosts(3);
  const changed = cms.updateEntry('posts', posts[0]!.id, {});
  const at = (gmt: string) => `/wp-json/wp/v2/posts?orderby=id&order=asc&modified_after=${gmt}Z`;
  t.deepEqual(
    (await get(at(posts[0]!.modified_gmt))).body.map((entry: CmsEntry) => entry.id),
    [changed.id],
  );
  t.deepEqual((await get(at(changed.modified_gmt))).body, []);
  const justBefore = new Date(Date.parse(`${changed.modified_gmt}Z`) - 1).toISOString();
  t.deepEqual(
    (await get(`/wp-json/wp/v2/posts?modified_after=${justBefore}`)).body.map((entry: CmsEntry) => entry.id),
    [changed.id],
  );
  const invalid = await get('/wp-json/wp/v2/posts?modified_after=yesterday');
  t.is(invalid.status, 400);
  t.like(invalid.body, { code: 'rest_invalid_param', data: { params: { modified_after: 'Invalid date.' } } });
});

test('include lists only those ids, in the order of the listing', async (t) => {
  const { cms, get } = await setup(t);
  cms.addPosts(6);
  const listed = await get('/wp-json/wp/v2/posts?include=5,2,99&orderby=id&order=asc');
  t.deepEqual(
    listed.body.map((entry: CmsEntry) => entry.id),
    [2, 5],
  );
  t.is(listed.headers.get('x-wp-total'), '2');
  t.is((await get('/wp-json/wp/v2/posts?include=2,x')).status, 400);
});

test('a page past the last is a 400; page 1 of nothing is an empty 200', async (t) => {
  const { cms, get } = await setup(t);
  t.like(await get('/wp-json/wp/v2/pages'), { status: 200, body: [] });
  cms.addPages(3);
  const beyond = await get('/wp-json/wp/v2/pages?page=2&per_page=3');
  t.is(beyond.status, 400);
  t.deepEqual(beyond.body, {
    code: 'rest_post_invalid_page_number',
    message: 'The page number requested is larger than the number of pages available.',
    data: { status: 400 },
  });
  t.is(beyond.headers.get('x-wp-total'), null);
});

test('bad parameters are reported together as rest_invalid_param', async (t) => {
  const { get } = await setup(t, { maxPerPage: 50 });
  const answer = await get('/wp-json/wp/v2/posts?per_page=51&orderby=random&page=0');
  t.is(answer.status, 400);
  t.is(answer.body.code, 'rest_invalid_param');
  t.is(answer.body.message, 'Invalid parameter(s): page, per_page, orderby');
  t.is(answer.body.data.status, 400);
  t.is(answer.body.data.params.per_page, 'per_page must be between 1 (inclusive) and 50 (inclusive)');
  t.is(answer.body.data.details.per_page.code, 'rest_out_of_bounds');
  t.is((await get('/wp-json/wp/v2/posts?per_page=50')).status, 200);
});

test('drafts are stored but never listed; asking for them needs authentication', async (t) => {
  const { cms, get } = await setup(t);
  cms.addPosts([{ status: 'draft' }, {}]);
  t.is(cms.entries('posts').length, 2);
  t.deepEqual(
    (await get('/wp-json/wp/v2/posts')).body.map((entry: CmsEntry) => entry.id),
    [2],
  );
  const forbidden = await get('/wp-json/wp/v2/posts?status=draft');
  t.is(forbidden.status, 400);
  t.like(forbidden.body, { code: 'rest_invalid_param', data: { params: { status: 'Status is forbidden.' } } });
  cms.updateEntry('posts', 1, { status: 'publish' });
  t.is((await get('/wp-json/wp/v2/posts')).body.length, 2);
  cms.deleteEntry('posts', 2);
  t.deepEqual(ids(cms.entries('posts')), [1]);
  t.throws(() => cms.deleteEntry('posts', 2), { message: /no posts entry 2/ });
});

test('_embed adds the author and the terms by taxonomy, with names as WordPress escapes them', async (t) => {
  const { cms, get } = await setup(t);
  const [post] = cms.addPosts([{ author: 2, categories: [3], tags: [8, 5] }]);
  cms.addPages(1);
  const [served] = (await get('/wp-json/wp/v2/posts?_embed=author,wp:term')).body;
  t.deepEqual(served._embedded.author, [fakeCmsAuthors[1]]);
  t.deepEqual(served._embedded['wp:term'], [
    [{ id: 3, name: 'News &amp; Events', slug: 'news-events', taxonomy: 'category' }],
    [
      { id: 8, name: 'tips &amp; tricks', slug: 'tips-tricks', taxonomy: 'post_tag' },
      { id: 5, name: 'setup', slug: 'setup', taxonomy: 'post_tag' },
    ],
  ]);
  t.is(served.id, post!.id);
  const [onlyAuthor] = (await get('/wp-json/wp/v2/posts?_embed=author')).body;
  t.deepEqual(Object.keys(onlyAuthor._embedded), ['author']);
  const [page] = (await get('/wp-json/wp/v2/pages?_embed=1')).body;
  t.deepEqual(Object.keys(page._embedded), ['author']);
});

test('password-protected entries are listed with their text withheld', async (t) => {
  const { cms, get } = await setup(t);
  cms.addPosts([
    { content: { rendered: '<p>Secret</p>', protected: true }, excerpt: { rendered: '<p>Secret</p>', protected: true } },
  ]);
  const [served] = (await get('/wp-json/wp/v2/posts')).body;
  t.deepEqual(served.content, { rendered: '', protected: true });
  t.deepEqual(served.excerpt, { rendered: '', protected: true });
  t.is(cms.entries('posts')[0]?.content.rendered, '<p>Secret</p>');
});

test('unknown routes and methods answer rest_no_route', async (t) => {
  const { cms, get } = await setup(t);
  const answer = await get('/wp-json/wp/v2/products');
  t.is(answer.status, 404);
  t.deepEqual(answer.body, {
    code: 'rest_no_route',
    message: 'No route was found matching the URL and request method.',
    data: { status: 404 },
  });
  t.is((await fetch(`${cms.url}/wp-json/wp/v2/posts`, { method: 'DELETE' })).status, 404);
});

test('scripted rate limits and failures come first, then the normal answer; every request is logged', async (t) => {
  const { cms, get } = await setup(t);
  cms.rateLimitNext(1, 9);
  cms.failNext(1, 500);
  cms.failNext(1, 502);
  const limited = await get('/wp-json/wp/v2/nowhere');
  t.is(limited.status, 429);
  t.is(limited.headers.get('retry-after'), '9');
  t.deepEqual(limited.body, { code: 'rest_too_many_requests', message: 'Too many requests.', data: { status: 429 } });
  t.like(await get('/wp-json/wp/v2/posts'), { status: 500, body: { code: 'internal_server_error' } });
  const badGateway = await fetch(`${cms.url}/wp-json/wp/v2/posts`);
  t.is(badGateway.status, 502);
  t.regex(await badGateway.text(), /502 Bad Gateway/);
  t.is((await get('/wp-json/wp/v2/posts?page=1')).status, 200);
  t.deepEqual(cms.requests, [
    { method: 'GET', path: '/wp-json/wp/v2/nowhere', query: {}, status: 429 },
    { method: 'GET', path: '/wp-json/wp/v2/posts', query: {}, status: 500 },
    { method: 'GET', path: '/wp-json/wp/v2/posts', query: {}, status: 502 },
    { method: 'GET', path: '/wp-json/wp/v2/posts', query: { page: '1' }, status: 200 },
  ]);
});

test('with auth, Basic credentials are checked as application passwords are', async (t) => {
  const { get } = await setup(t, { auth: { username: 'editor', password: 'abcd efgh ijkl' } });
  const basic = (user: string, password: string) => ({
    authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`,
  });
  t.like(await get('/wp-json/wp/v2/posts'), { status: 401, body: { code: 'rest_not_logged_in' } });
  t.like(await get('/wp-json/wp/v2/posts', basic('someone', 'abcd efgh ijkl')), {
    status: 401,
    body: { code: 'invalid_username' },
  });
  t.like(await get('/wp-json/wp/v2/posts', basic('editor', 'abcd efgh ijkm')), {
    status: 401,
    body: { code: 'incorrect_password' },
  });
  t.is((await get('/wp-json/wp/v2/posts', basic('editor', 'abcdefghijkl'))).status, 200);
  // Authenticated, other statuses may be asked for; the fake still lists published entries only.
  t.deepEqual((await get('/wp-json/wp/v2/posts?status=draft', basic('editor', 'abcd efgh ijkl'))).body, []);
});
