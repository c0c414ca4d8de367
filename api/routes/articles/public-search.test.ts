import test from 'ava';
import { createArticleStore, type ArticleStore } from '#articles/store.js';
import { createTenantWithKey, type TestApi } from '#testing/api.js';
import { startIngestionStack, untilSearchable, type IngestionStack } from '#testing/ingestion.js';

/*
 * Search finds what the list shows, as it is now, whether or not the article's ingestion has caught
 * up: the worker is taken away to hold an ingestion back, so each check runs before it (and, once
 * the worker is back, after it). Serial: the tests share the one worker.
 */

let stack: IngestionStack;
let api: TestApi;
let store: ArticleStore;
test.before(async () => {
  stack = await startIngestionStack({}, { worker: false });
  api = stack.api;
  store = createArticleStore(api.redis, api.config.redis.prefix);
});
test.after.always(() => stack?.close());

/** A tenant's help centre: an author, the articles API's search and list, the hosted search page. */
async function helpCentre() {
  const { tenant, headers } = await createTenantWithKey(api, ['articles:read', 'iq:import']);
  const kb = tenant.defaultKnowledgeBaseId as string;
  const author = async (method: string, path: string, body?: unknown) => {
    const response = await api.admin(method, `/admin/knowledge-bases/${kb}${path}`, body);
    if (response.status >= 300)
      throw new Error(`${method} ${path} answered ${response.status}: ${JSON.stringify(response.body)}`);
    return response.body;
  };
  const list = async (query = '') => {
    const response = await api.request('GET', `/public/knowledge-bases/${kb}/articles${query}`, { headers });
    if (response.status !== 200) throw new Error(`the list answered ${response.status}: ${JSON.stringify(response.body)}`);
    return response.body as { articles: Array<{ id: string; title: string }>; total: number };
  };
  return {
    kb,
    publish: (fields: Record<string, unknown>) => author('POST', '/articles', { status: 'PUBLISHED', ...fields }),
    edit: (id: string, fields: Record<string, unknown>) => author('PATCH', `/articles/${id}`, fields),
    remove: (id: string) => author('DELETE', `/articles/${id}`),
    titles: async (query = '') => (await list(query)).articles.map((article) => article.title),
    found: async (words: string, more = '') =>
      (await list(`?search=${encodeURIComponent(words)}${more}`)).articles.map((article) => article.title),
    /** The slugs the hosted help centre's search page links to. */
    helpFound: async (words: string) => {
      const html = (await api.request('GET', `/help/${kb}?q=${encodeURIComponent(words)}`)).body as string;
      return [...html.matchAll(new RegExp(`href="/help/${kb}/([^"/]+)"`, 'g'))].map((link) => link[1]);
    },
    /** Until each article's ingestion job is `searchable`. */
    ingested: (...articles: Array<{ id: string }>) =>
      untilSearchable(
        api,
        headers,
        articles.map((article) => `help-center-${article.id}`),
      ),
    pendingIds: async () => (await store.searchPending(kb)).map((entry) => entry.id).sort(),
  };
}

test.serial('a search right after publishing finds the article, as the list does, before its ingestion and after', async (t) => {
  await stack.stopWorker();
  const centre = await helpCentre();
  t.deepEqual(await centre.found('kayak'), [], 'nothing yet, and that page is kept');

  const kayak = await centre.publish({ title: 'Kayak paddling basics', body: 'Hold the paddle with both hands, knuckles up.' });
  await centre.publish({ title: 'Kayak draft', body: 'A kayak draft.', status: 'DRAFT' });
  t.deepEqual(await centre.titles(), ['Kayak paddling basics'], 'the list shows it at once');
  t.deepEqual(await centre.found('kayak'), ['Kayak paddling basics'], 'and so does search');
  t.deepEqual(await centre.found('knuckles'), ['Kayak paddling basics'], 'by the words of its body too');
  t.deepEqual(await centre.found('canoe'), []);
  t.deepEqual(await centre.helpFound('kayak paddle'), [kayak.slug], 'the help centre searches the same way');
  t.deepEqual(await centre.pendingIds(), [kayak.id], 'no worker has ingested it: found on its own text');

  await stack.startWorker();
  await centre.ingested(kayak);
  t.deepEqual(await centre.found('kayak'), ['Kayak paddling basics']);
  t.deepEqual(await centre.pendingIds(), [], 'its passages are in: that search found it through them');
  t.deepEqual(await centre.found('knuckles'), ['Kayak paddling basics']);
  t.deepEqual(await centre.helpFound('kayak paddle'), [kayak.slug]);
});

test.serial('an edited article is found by its new words at once, and no longer by the words it lost', async (t) => {
  await stack.startWorker();
  const centre = await helpCentre();
  const canoe = await centre.publish({ title: 'Canoe storage', body: 'Store the canoe upside down on a rack.' });
  await centre.ingested(canoe);
  t.deepEqual(await centre.found('rack'), ['Canoe storage']);
  t.deepEqual(await centre.pendingIds(), []);

  await stack.stopWorker();
  await centre.edit(canoe.id, { body: 'Keep the canoe in a shed, hull up.' });
  t.deepEqual(await centre.found('shed'), ['Canoe storage'], 'its new words, before its ingestion');
  t.deepEqual(await centre.found('rack'), [], 'not the words it lost, which its passages still hold');
  t.deepEqual(await centre.helpFound('shed'), [canoe.slug]);
  t.deepEqual(await centre.helpFound('rack'), []);

  await stack.startWorker();
  await centre.ingested(canoe);
  t.deepEqual(await centre.found('shed'), ['Canoe storage']);
  t.deepEqual(await centre.pendingIds(), [], 'through its new passages now');
  t.deepEqual(await centre.found('rack'), []);
  t.deepEqual(await centre.helpFound('rack'), []);
});

test.serial('pending articles are filtered like the others and ranked by how much of the query they hold', async (t) => {
  await stack.startWorker();
  const centre = await helpCentre();
  const fuel = await centre.publish({ title: 'Stove fuel', body: 'Which fuel for a camping stove: gas or liquid.' });
  await centre.ingested(fuel);

  await stack.stopWorker();
  await centre.publish({ title: 'Stove repair', body: 'Replace the jet of the stove.', channels: ['WIDGET'] });
  await centre.publish({ title: 'Camping stove cleaning', body: 'Clean the stove after each camping trip.' });
  await centre.publish({ title: 'Sleeping bags', body: 'Air it after each night.' });
  t.deepEqual(
    await centre.found('camping stove'),
    ['Camping stove cleaning', 'Stove fuel', 'Stove repair'],
    'holding every word: before the passages; some: after them',
  );
  t.deepEqual(await centre.found('camping stove', '&pageSize=1&page=2'), ['Stove fuel'], 'pages of that one ranking');
  t.deepEqual(await centre.found('camping stove', '&channel=HELP_CENTER'), ['Camping stove cleaning', 'Stove fuel']);
  t.deepEqual(await centre.found('the'), [], 'a stopword matches nothing, as in the passages');
});

test.serial('an unpublished or deleted article is gone from search at once, its passages not yet removed', async (t) => {
  await stack.startWorker();
  const centre = await helpCentre();
  const sizing = await centre.publish({ title: 'Snowshoe sizing', body: 'Pick snowshoes by your weight.' });
  const bindings = await centre.publish({ title: 'Snowshoe bindings', body: 'Tighten the snowshoe bindings.' });
  await centre.ingested(sizing, bindings);
  t.deepEqual((await centre.found('snowshoe')).sort(), ['Snowshoe bindings', 'Snowshoe sizing']);
  t.deepEqual((await centre.helpFound('snowshoe')).sort(), [bindings.slug, sizing.slug].sort());

  await stack.stopWorker();
  await centre.edit(sizing.id, { status: 'DRAFT' });
  await centre.remove(bindings.id);
  t.deepEqual(await centre.titles(), []);
  t.deepEqual(await centre.found('snowshoe'), [], 'gone from search with the list');
  t.deepEqual(await centre.helpFound('snowshoe'), []);
  t.deepEqual(await centre.pendingIds(), [], 'and from the articles search matches on their own text');

  await centre.edit(sizing.id, { status: 'PUBLISHED' });
  t.deepEqual(await centre.found('snowshoe'), ['Snowshoe sizing'], 'published again: found again at once');
});
