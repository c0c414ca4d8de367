import { createHash } from 'node:crypto';
import test from 'ava';
import {
  importingTenant,
  ingest,
  ingestAndWait,
  item,
  search,
  startIngestionStack,
  waitForJobs,
  type IngestionStack,
} from '#testing/ingestion.js';
import { eventually } from '#testing/eventually.js';
import { assertMatchesSchema } from '#testing/schema.js';
import { bulkQueuedResponse, jobResponse, queuedResponse, searchResponse } from '../schemas/ingest.js';

let stack: IngestionStack;
test.before(async () => {
  stack = await startIngestionStack();
});
test.after.always(() => stack?.close());

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

test('one item goes from POST to searchable, and search returns what was kept with it', async (t) => {
  const { headers, kb } = await importingTenant(stack.api);
  const accepted = await ingest(stack.api, headers, {
    ...item('sku-42', {
      title: 'Trail running shoe',
      content: '<p>A light <strong>trail running</strong> shoe with a grippy sole &amp; a waterproof upper.</p>',
      url: 'https://shop.example.com/p/42',
      metadata: { price: 129, sku: 'TRS-42' },
      sourceData: { vendor: 'Acme', inStock: true },
    }),
    sourceOrigin: 'shopify',
  });
  assertMatchesSchema(t, queuedResponse, accepted);
  t.deepEqual(accepted, { status: 'queued', jobId: 'shop-sku-42' });

  const job = (await waitForJobs(stack.api, headers, ['shop-sku-42'])).get('shop-sku-42');
  t.is(job?.status, 'searchable');
  const jobResponseBody = await stack.api.request('GET', '/ingest/jobs/shop-sku-42', { headers });
  assertMatchesSchema(t, jobResponse, jobResponseBody.body);
  t.is(jobResponseBody.body.knowledgeBaseId, kb);

  const found = await stack.api.request('GET', `/knowledge-bases/${kb}/search?q=waterproof+trail+shoe`, { headers });
  assertMatchesSchema(t, searchResponse, found.body);
  const [hit, ...rest] = found.body.results;
  t.is(rest.length, 0);
  t.like(hit, {
    externalId: 'sku-42',
    integrationId: 'shop',
    sourceType: 'PRODUCT',
    sourceOrigin: 'shopify',
    title: 'Trail running shoe',
    url: 'https://shop.example.com/p/42',
    metadata: { price: 129, sku: 'TRS-42' },
    sourceData: { vendor: 'Acme', inStock: true },
  });
  t.regex(hit!.snippet, /grippy sole & a waterproof upper/);
  t.false(hit!.snippet.includes('<strong>'));
  t.true(hit!.score > 0);
});

test('sending the pair again updates the item in place', async (t) => {
  const { headers, kb } = await importingTenant(stack.api);
  await ingestAndWait(
    stack.api,
    headers,
    item('doc-1', { title: 'Returns', content: 'Parcels go back by pigeon post within 30 days.' }),
  );
  t.is((await search(stack.api, headers, kb, 'pigeon')).length, 1);

  const job = await ingestAndWait(
    stack.api,
    headers,
    item('doc-1', { title: 'Returns', content: 'Parcels go back by courier within 60 days.' }),
  );
  t.is(job.status, 'searchable');
  t.deepEqual(await search(stack.api, headers, kb, 'pigeon'), []);
  const results = await search(stack.api, headers, kb, 'courier parcels');
  t.is(results.length, 1);
  t.regex(results[0]!.snippet, /courier within 60 days/);
});

test('an unchanged hash is skipped; forceRefresh processes it anyway', async (t) => {
  const { headers, kb } = await importingTenant(stack.api);
  const data = { title: 'Opening hours', content: 'We open at nine on weekdays.' };
  const hash = sha256(data.title + data.content);
  t.is((await ingestAndWait(stack.api, headers, item('hours', { ...data, hash }))).status, 'searchable');

  const changedButSameHash = { title: 'Opening hours', content: 'We open at ten on weekdays.', hash };
  t.is((await ingestAndWait(stack.api, headers, item('hours', changedButSameHash))).status, 'skipped');
  t.is((await search(stack.api, headers, kb, 'ten weekdays'))[0]?.snippet, 'We open at nine on weekdays.');

  const forced = await ingestAndWait(stack.api, headers, item('hours', changedButSameHash, { options: { forceRefresh: true } }));
  t.is(forced.status, 'searchable');
  t.is((await search(stack.api, headers, kb, 'ten weekdays'))[0]?.snippet, 'We open at ten on weekdays.');
});

test('items without a knowledge base go to the default one; with one, to that one', async (t) => {
  const { tenant, headers, kb } = await importingTenant(stack.api);
  const other = (await stack.api.admin('POST', `/admin/tenants/${tenant.id}/knowledge-bases`, { name: 'Second' })).body
    .id as string;
  await ingestAndWait(stack.api, headers, item('a', { title: 'Default base', content: 'Stored in the default knowledge base.' }));
  await ingestAndWait(
    stack.api,
    headers,
    item('b', { title: 'Second base', content: 'Stored in the second knowledge base.' }, { knowledgeBaseId: other }),
  );

  t.deepEqual(
    (await search(stack.api, headers, kb, 'stored knowledge base')).map((r) => r.externalId),
    ['a'],
  );
  t.deepEqual(
    (await search(stack.api, headers, other, 'stored knowledge base')).map((r) => r.externalId),
    ['b'],
  );
});

test('sending the pair with another knowledge base moves the item', async (t) => {
  const { tenant, headers, kb } = await importingTenant(stack.api);
  const other = (await stack.api.admin('POST', `/admin/tenants/${tenant.id}/knowledge-bases`, { name: 'Archive' })).body
    .id as string;
  const data = { title: 'Warranty', content: 'Two years of warranty on every kettle.' };
  await ingestAndWait(stack.api, headers, item('warranty', data));
  t.is((await search(stack.api, headers, kb, 'kettle warranty')).length, 1);

  const moved = await ingestAndWait(stack.api, headers, item('warranty', data, { knowledgeBaseId: other }));
  t.is(moved.status, 'searchable');
  t.is(moved.knowledgeBaseId, other);
  t.deepEqual(await search(stack.api, headers, kb, 'kettle warranty'), []);
  t.is((await search(stack.api, headers, other, 'kettle warranty')).length, 1);
});

test('a bulk of 100 is queued in order and all of it becomes searchable', async (t) => {
  const { headers, kb } = await importingTenant(stack.api);
  const items = Array.from({ length: 100 }, (_, i) =>
    item(`bulk-${i}`, { title: `Product ${i}`, content: `Product number ${i} is a sturdy widget, model W${i}.` }),
  );
  const response = await stack.api.request('POST', '/ingest/bulk', { body: { items }, headers });
  t.is(response.status, 200);
  assertMatchesSchema(t, bulkQueuedResponse, response.body);
  t.is(response.body.jobCount, 100);
  t.is(response.body.estimatedTime, '10s');
  t.deepEqual(
    response.body.jobIds,
    items.map((i) => `shop-${i.externalId}`),
  );

  const jobs = await waitForJobs(stack.api, headers, response.body.jobIds, 120_000);
  t.is([...jobs.values()].filter((job) => job.status === 'searchable').length, 100);
  const [hit] = await search(stack.api, headers, kb, 'model W57', 1);
  t.is(hit?.externalId, 'bulk-57');
});

// Found by the fault campaign: a bulk sent only the last occurrence of a pair, so a full version
// followed in the same bulk by a metadata-only change lost its text.
test('every occurrence of a pair in one bulk applies in order: a metadata-only change lands on the new text', async (t) => {
  const { headers, kb } = await importingTenant(stack.api);
  await ingestAndWait(stack.api, headers, item('twice', { title: 'Lamp', content: 'The old lamp text, code oldlamp.' }));
  const items = [
    item('twice', { title: 'Lamp', content: 'The new lamp text, code newlamp.', metadata: { version: 2 } }),
    {
      ...item('twice', { title: 'Lamp', content: 'The new lamp text, code newlamp.', metadata: { version: 3 } }),
      options: { metadataOnly: true },
    },
  ];
  const response = await stack.api.request('POST', '/ingest/bulk', { body: { items }, headers });
  t.deepEqual(response.body.jobIds, ['shop-twice', 'shop-twice']);
  // Both must apply, the metadata-only change last: whatever comes first, this is where it ends.
  const [hit] = await eventually(
    () => search(stack.api, headers, kb, 'newlamp', 1),
    ([found]) => found?.metadata?.version === 3,
    { timeoutMs: 60_000, intervalMs: 500 },
  );
  t.is(hit?.externalId, 'twice');
  t.true(hit?.snippet.includes('newlamp'));
  t.deepEqual(hit?.metadata, { version: 3 });
});

test('jobs and search belong to their tenant', async (t) => {
  const mine = await importingTenant(stack.api);
  const theirs = await importingTenant(stack.api);
  await ingestAndWait(
    stack.api,
    mine.headers,
    item('secret-recipe', { title: 'Secret recipe', content: 'Add a pinch of saffron.' }),
  );

  t.is((await stack.api.request('GET', '/ingest/jobs/shop-secret-recipe', { headers: theirs.headers })).status, 404);
  const foreign = await stack.api.request('GET', `/knowledge-bases/${mine.kb}/search?q=saffron`, { headers: theirs.headers });
  t.is(foreign.status, 403);
  t.deepEqual(await search(stack.api, theirs.headers, theirs.kb, 'saffron'), []);

  const foreignIngest = await stack.api.request('POST', '/ingest', {
    body: item('x', { title: 'x', content: 'x' }, { knowledgeBaseId: mine.kb }),
    headers: theirs.headers,
  });
  t.is(foreignIngest.status, 403);
});
