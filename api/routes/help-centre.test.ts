import test from 'ava';
import { request } from 'undici';
import { createArticleStore } from '#articles/store.js';
import { chatClient, chattingTenant } from '#testing/chat.js';
import { startIngestionStack, untilSearchable, type IngestionStack } from '#testing/ingestion.js';
import type { TestApi } from '#testing/api.js';

/*
 * The hosted help centre on the real stack: the pages of a tenant's published public articles at
 * the address the AI cites, and nothing else of theirs.
 */

let stack: IngestionStack;
let api: TestApi;
test.before(async () => {
  stack = await startIngestionStack({ HELP_CENTRE_FEEDBACK_PER_ADDRESS: '3', CHAT_REPLY_TIMEOUT_SECONDS: '30' });
  api = stack.api;
});
test.after.always(() => stack?.close());

/** A tenant with a chat operator, and an author's hands on its knowledge base. */
async function helpCentre() {
  const tenant = await chattingTenant(api);
  const kb = tenant.kb as string;
  const author = async (path: string, body: Record<string, unknown>) => {
    const response = await api.admin('POST', `/admin/knowledge-bases/${kb}${path}`, body);
    if (response.status !== 201) throw new Error(`${path} answered ${response.status}: ${JSON.stringify(response.body)}`);
    return response.body;
  };
  const article = (fields: Record<string, unknown>) =>
    author('/articles', { body: 'Some text to read.', status: 'PUBLISHED', ...fields });
  return { ...tenant, kb, author, article };
}

/** A page as a browser asks for it; the answer's HTML as text. */
const page = (path: string, headers: Record<string, string> = {}) => api.request('GET', path, { headers });

/** Posts the article page's form as a browser would, without following the redirect. */
function vote(path: string, form: string, contentType = 'application/x-www-form-urlencoded') {
  return fetch(`${api.url}${path}`, { method: 'POST', headers: { 'content-type': contentType }, body: form, redirect: 'manual' });
}

test('an article page: the published article, cleaned, as a page nothing can run on, counting a view', async (t) => {
  const { kb, author, article } = await helpCentre();
  const category = await author('/categories', { name: 'Orders & returns' });
  const published = await article({
    title: 'Returning an item',
    excerpt: 'Thirty days, unused.',
    body: '## How\n\nSend it back **unused** within 30 days.\n\n<script>alert(1)</script><img src="x" onerror="alert(1)">',
    categoryId: category.id,
  });

  const response = await page(`/help/${kb}/${published.slug}`);
  t.is(response.status, 200);
  t.is(response.headers.get('content-type'), 'text/html; charset=utf-8');
  const html = response.body as string;
  t.true(html.includes('<h1>Returning an item</h1>'));
  t.true(html.includes('<h2>How</h2>'));
  t.true(html.includes('<strong>unused</strong>'));
  t.true(html.includes(`<a href="/help/${kb}/categories/${category.slug}">Orders &amp; returns</a>`));
  t.false(html.includes('<script'), 'the page holds no script, an author’s least of all');
  t.false(html.includes('onerror'));
  const policy = response.headers.get('content-security-policy') ?? '';
  t.true(policy.includes("default-src 'none'"));
  t.false(policy.includes('script-src'), 'no script may run');
  t.is(response.headers.get('cache-control'), 'public, max-age=60');

  const store = createArticleStore(api.redis, api.config.redis.prefix);
  t.deepEqual(await store.viewsOf([published.id]), [1]);

  const etag = response.headers.get('etag')!;
  t.truthy(etag);
  // As a browser revalidates (fetch would add `Cache-Control: no-cache`, asking for the page afresh).
  const again = await request(`${api.url}/help/${kb}/${published.slug}`, { headers: { 'if-none-match': etag } });
  t.is(again.statusCode, 304, 'unchanged: the reader keeps what they have');
  await again.body.dump();
  t.deepEqual(await store.viewsOf([published.id]), [2], 'a read from the cache is still a read');

  const styles = await page('/help/assets/help.css');
  t.is(styles.status, 200);
  t.is(styles.headers.get('content-type'), 'text/css; charset=utf-8');
  t.true((styles.body as string).includes('.feedback'));
});

test('only published public articles have pages; anything else, another tenant’s included, is a 404 page', async (t) => {
  const { kb, article } = await helpCentre();
  const other = await helpCentre();
  const draft = await article({ title: 'Draft', status: 'DRAFT' });
  const internal = await article({ title: 'Internal', visibility: 'INTERNAL' });
  const archived = await article({ title: 'Archived', status: 'ARCHIVED' });
  const theirs = await other.article({ title: 'Theirs' });
  const unknownKb = '00000000-0000-4000-8000-000000000000';

  for (const path of [
    `/help/${kb}/${draft.slug}`,
    `/help/${kb}/${internal.slug}`,
    `/help/${kb}/${archived.slug}`,
    `/help/${kb}/${theirs.slug}`,
    `/help/${kb}/no-such-article`,
    `/help/${unknownKb}/${theirs.slug}`,
    `/help/${unknownKb}`,
    `/help/${kb}/categories/no-such-category`,
  ]) {
    const response = await page(path);
    t.is(response.status, 404, path);
    t.is(response.headers.get('content-type'), 'text/html; charset=utf-8', path);
    t.true((response.body as string).includes('<title>Page not found</title>'), path);
    t.true((response.body as string).includes('Request '), 'the request id, for support');
    t.true((response.headers.get('content-security-policy') ?? '').includes("default-src 'none'"), path);
    t.is(response.headers.get('cache-control'), 'no-store', 'an error is not kept');
  }
  t.is((await page(`/help/${other.kb}/${theirs.slug}`)).status, 200, 'their page is theirs');
});

test('the home page lists featured and latest articles and each category; a category pages through its own', async (t) => {
  const { kb, author, article } = await helpCentre();
  const orders = await author('/categories', { name: 'Orders', description: 'Buying and paying' });
  const tracking = await author('/categories', { name: 'Tracking', parentId: orders.id });
  await author('/categories', { name: 'Nothing here' });
  const featured = await article({ title: 'Start here', featured: true });
  const widgetOnly = await article({ title: 'Widget only', channels: ['WIDGET'] });
  for (let i = 1; i <= 12; i++) await article({ title: `Order question ${i}`, categoryId: orders.id });
  await article({ title: 'Where is my parcel', categoryId: tracking.id });

  const home = (await page(`/help/${kb}`)).body as string;
  const headings = ['<h2>Featured</h2>', '<h2>Latest articles</h2>', '>Orders</a></h2>', '>Tracking</a></h3>'];
  const positions = headings.map((heading) => home.indexOf(heading));
  t.true(
    positions.every((position) => position > 0),
    positions.join(),
  );
  t.deepEqual(
    [...positions].sort((a, b) => a - b),
    positions,
    'featured, latest, then the category tree',
  );
  t.true(home.includes(`<a href="/help/${kb}/${featured.slug}">Start here</a>`));
  t.true(home.includes('Order question 12') && !home.includes('>Order question 2<'), 'a section shows its newest 10');
  t.true(home.includes(`<a href="/help/${kb}/categories/${orders.slug}">All 12 articles</a>`));
  t.false(home.includes('Nothing here'), 'an empty category is left out');
  t.false(home.includes('Widget only'), 'lists hold the help centre’s channel');
  t.is((await page(`/help/${kb}/${widgetOnly.slug}`)).status, 200, 'but the AI may cite it, so its page exists');

  const first = (await page(`/help/${kb}/categories/${orders.slug}?page=1&utm_source=mail`)).body as string;
  t.true(first.includes('<h1>Orders</h1>'));
  t.true(first.includes(`<a href="/help/${kb}/categories/${tracking.slug}">Tracking</a>`), 'its subcategories');
  t.is((first.match(/Order question \d+/g) ?? []).length, 12, 'one page of 50 holds all twelve');
  t.false(first.includes('rel="next"'));

  // Pages are kept per process under the list version: a change shows at once.
  await article({ title: 'Just published', categoryId: tracking.id });
  t.true(((await page(`/help/${kb}`)).body as string).includes('Just published'));
  t.true(((await page(`/help/${kb}/categories/${tracking.slug}`)).body as string).includes('Just published'));

  const invalid = await page(`/help/${kb}/categories/${orders.slug}?page=0`);
  t.is(invalid.status, 400);
  t.true((invalid.body as string).includes('page'), 'the page says what was wrong');
});

test('search from the home page finds published articles by their words, at once and once indexed', async (t) => {
  const { kb, headers, article } = await helpCentre();
  const match = await article({ title: 'Gift cards', body: 'Gift cards never expire and can be spent on anything.' });
  const other = await article({ title: 'Shipping times', body: 'Parcels arrive in two to four days.' });
  const search = async () => (await page(`/help/${kb}?q=${encodeURIComponent('gift cards expire')}`)).body as string;
  const atOnce = await search();
  t.true(atOnce.includes(`/help/${kb}/${match.slug}`), 'found before its ingestion (lib/articles/article-search.ts)');
  t.false(atOnce.includes('Shipping times'));
  await untilSearchable(
    api,
    headers,
    [match, other].map((published) => `help-center-${published.id}`),
  );
  const results = await search();
  t.true(results.includes('1 article for “gift cards expire”.'));
  t.false(results.includes('Shipping times'));
  t.true(((await page(`/help/${kb}?q=zeppelin`)).body as string).includes('No article matches “zeppelin”.'));
});

test('a vote from the page’s form counts, thanks the reader, and is refused past the address’s budget', async (t) => {
  const { kb, article } = await helpCentre();
  const published = await article({ title: 'Was this useful' });
  const path = `/help/${kb}/${published.slug}/feedback`;

  const yes = await vote(path, 'helpful=yes');
  t.is(yes.status, 303);
  t.is(yes.headers.get('location'), `/help/${kb}/${published.slug}?feedback=thanks#feedback`);
  const thanked = (await page(`/help/${kb}/${published.slug}?feedback=thanks`)).body as string;
  t.true(thanked.includes('Thank you for your feedback.'));
  t.false(thanked.includes('<form method="post"'));

  const invalid = await vote(path, 'helpful=maybe');
  t.is(invalid.status, 400);
  t.is(invalid.headers.get('content-type'), 'text/html; charset=utf-8');
  t.true((await invalid.text()).includes('helpful'));
  t.is((await vote(path, '{"helpful":"yes"}', 'application/json')).status, 415);

  t.is((await vote(path, 'helpful=no')).status, 303);
  t.is((await vote(path, 'helpful=no')).status, 303);
  const refused = await vote(path, 'helpful=yes');
  t.is(refused.status, 429, 'three votes per address in the window');
  t.truthy(refused.headers.get('retry-after'));
  t.true((await refused.text()).includes('<h1>Too many requests</h1>'));

  const store = createArticleStore(api.redis, api.config.redis.prefix);
  t.deepEqual(await store.helpfulnessOf([published.id]), [{ helpfulCount: 1, notHelpfulCount: 2 }]);
});

test('the AI cites an article at an address this service serves', async (t) => {
  const { kb, headers, article, operator } = await helpCentre();
  const published = await article({
    title: 'Returns policy',
    body: 'You can return any unused item within 30 days of delivery for a full refund.',
  });
  // The help centre's search finds it at once; the AI once it is ingested.
  await untilSearchable(api, headers, [`help-center-${published.id}`]);
  const chat = chatClient(api.url, operator.operatorKey as string);
  const answer = await chat.ask(await chat.start(), 'How long do I have to return an item?');
  t.is(answer.reply?.outcome, 'answered');
  const cited = new URL(answer.reply.citations[0].url);
  t.is(cited.pathname, `/help/${kb}/${published.slug}`);
  const response = await page(cited.pathname);
  t.is(response.status, 200);
  t.true((response.body as string).includes('<h1>Returns policy</h1>'));
});
