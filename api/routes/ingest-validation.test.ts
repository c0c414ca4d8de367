import test from 'ava';
import { startTestApi, type TestApi } from '#testing/api.js';
import { importingTenant, item } from '#testing/ingestion.js';
import { ingestLimits } from '../schemas/ingest.js';

// Every bad payload is refused before anything is queued: no worker is needed here (so a cleanup
// accepted here waits out CLEANUP_WAIT_SECONDS before it answers 202: one second, not the default minute).
let api: TestApi;
let headers: Record<string, string>;
test.before(async () => {
  api = await startTestApi({ CLEANUP_WAIT_SECONDS: '1' });
  ({ headers } = await importingTenant(api));
});
test.after.always(() => api?.close());

const valid = () => item('sku-1', { title: 'Mug', content: 'A blue mug.' });

async function refused(t: any, path: string, body: unknown) {
  const response = await api.request('POST', path, { body, headers });
  t.is(response.status, 400, JSON.stringify(body));
  t.is(response.body.error.code, 'invalid_payload');
  return (response.body.error.details as Array<{ path: string; message: string }>).map((d) => `${d.path} ${d.message}`);
}

test('each required field is named when missing', async (t) => {
  t.deepEqual(await refused(t, '/ingest', {}), [
    '/integrationId is required',
    '/sourceType is required',
    '/externalId is required',
    '/data is required',
  ]);
  t.deepEqual(await refused(t, '/ingest', { ...valid(), data: {} }), ['/data/title is required', '/data/content is required']);
});

test('wrong types, values and unknown fields are refused', async (t) => {
  const problems = await refused(t, '/ingest', {
    ...valid(),
    integrationId: '',
    sourceType: 'RECIPE',
    knowledgeBaseId: 'not-a-uuid',
    tenantId: 'someone-else',
    data: { title: 42, content: 'x', url: 'ftp://files.example.com/a', metadata: 'price=3', hash: '' },
    options: { priority: 'urgent', forceRefresh: 'yes', extra: 1 },
  });
  for (const expected of [
    '/integrationId must NOT have fewer than 1 characters',
    '/sourceType must be one of "PRODUCT", "ARTICLE", "SERVICE", "PERSON", "PAGE"',
    '/knowledgeBaseId must be a UUID, such as 5c0f7e73-a4fe-4df6-9bf1-bf89a4065476',
    '/tenantId is not an allowed field',
    '/data/title must be string',
    '/data/url must be an http:// or https:// address',
    '/data/metadata must be object',
    '/data/hash must NOT have fewer than 1 characters',
    '/options/priority must be one of "high", "low"',
    '/options/forceRefresh must be boolean',
    '/options/extra is not an allowed field',
  ]) {
    t.true(problems.includes(expected), `${expected}\nin:\n${problems.join('\n')}`);
  }
});

// Found by `npm run fuzz`: a lone surrogate cannot be encoded into the item's workflow id, which
// made a 500 of it.
test('ids must be well-formed Unicode text: a lone surrogate is refused, a surrogate pair is fine', async (t) => {
  t.deepEqual(await refused(t, '/ingest', { ...valid(), externalId: 'sku-\uD800' }), [
    '/externalId must be well-formed Unicode text (no lone surrogate)',
  ]);
  const pair = await api.request('POST', '/ingest', { body: { ...valid(), externalId: 'sku-😀' }, headers });
  t.is(pair.status, 200, JSON.stringify(pair.body));
});

test('bulk problems name the index of the item', async (t) => {
  const problems = await refused(t, '/ingest/bulk', {
    items: [valid(), { ...valid(), externalId: 7 }, { ...valid(), data: { title: 'x' } }],
  });
  t.deepEqual(problems, ['/items/1/externalId must be string', '/items/2/data/content is required']);
  t.deepEqual(await refused(t, '/ingest/bulk', { items: [] }), ['/items must NOT have fewer than 1 items']);
  t.deepEqual(await refused(t, '/ingest/bulk', [valid()]), ['/ must be object']);
});

test("the help centre's integration is reserved: no API key writes or cleans it up", async (t) => {
  const article = item('article-1', { title: 'Returns', content: 'Changed by a key.' }, { integrationId: 'help-center' });
  t.deepEqual(await refused(t, '/ingest', article), ['/integrationId must not be help-center']);
  t.deepEqual(await refused(t, '/ingest/bulk', { items: [valid(), article] }), [
    '/items/1/integrationId must not be help-center',
  ]);
  t.deepEqual(await refused(t, '/ingest/cleanup', { sourceOrigin: 'help-center', keepExternalIds: [] }), [
    '/sourceOrigin must not be help-center',
  ]);
});

test('beyond the limits the answer is 413, saying the limit', async (t) => {
  const tooMany = await api.request('POST', '/ingest/bulk', {
    body: { items: Array.from({ length: ingestLimits.itemsPerBulk + 1 }, (_, i) => item(`i${i}`, { title: 't', content: 'c' })) },
    headers,
  });
  t.is(tooMany.status, 413);
  t.is(tooMany.body.error.code, 'payload_too_large');
  t.regex(tooMany.body.error.message, /at most 500 items \(got 501\)/);

  const long = await api.request('POST', '/ingest', {
    body: item('long', { title: 'Long', content: 'x'.repeat(ingestLimits.contentChars + 1) }),
    headers,
  });
  t.is(long.status, 413);
  t.regex(long.body.error.message, /data\.content is longer than 100000 characters/);

  const longInBulk = await api.request('POST', '/ingest/bulk', {
    body: { items: [valid(), item('long', { title: 'Long', content: 'x'.repeat(ingestLimits.contentChars + 1) })] },
    headers,
  });
  t.is(longInBulk.status, 413);
  t.regex(longInBulk.body.error.message, /items\[1\]\.data\.content/);
});

test('what Temporal could not carry is 413 naming the limit, never a 500: metadata, nesting, the item, the keep list', async (t) => {
  const post = (path: string, body: unknown) => api.request('POST', path, { body, headers });
  const withData = (data: Record<string, unknown>) => ({ ...valid(), data: { ...valid().data, ...data } });

  // About 3 MB: within the body limit, over Temporal's 2 MB per payload.
  const huge = await post('/ingest', withData({ metadata: { blob: 'x'.repeat(3 * 1024 * 1024) } }));
  t.is(huge.status, 413);
  t.is(huge.body.error.code, 'payload_too_large');
  t.regex(huge.body.error.message, /data\.metadata is larger than 262144 bytes/);

  const large = await post('/ingest/bulk', { items: [valid(), withData({ sourceData: { blob: 'x'.repeat(300 * 1024) } })] });
  t.is(large.status, 413);
  t.regex(large.body.error.message, /items\[1\]\.data\.sourceData is larger than 262144 bytes/);

  // Ten thousand levels: JSON.parse takes it, JSON.stringify (in the Temporal client) would not.
  const deep = `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`;
  const nested = await api.request('POST', '/ingest', {
    body: JSON.stringify(valid()).replace('"data":{', `"data":{"metadata":${deep},`),
    headers: { ...headers, 'content-type': 'application/json' },
  });
  t.is(nested.status, 413);
  t.regex(nested.body.error.message, /data\.metadata is nested deeper than 32 levels/);

  // Metadata and source data each within their limit, and content at its own, but together too much.
  const together = await post(
    '/ingest',
    withData({
      content: '\u0001'.repeat(ingestLimits.contentChars),
      metadata: { blob: 'x'.repeat(250 * 1024) },
      sourceData: { blob: 'x'.repeat(250 * 1024) },
    }),
  );
  t.is(together.status, 413);
  t.regex(together.body.error.message, /the item is larger than 1048576 bytes/);

  const manyIds = await post('/ingest/cleanup', {
    sourceOrigin: 'shop',
    keepExternalIds: Array.from({ length: ingestLimits.keepExternalIds + 1 }, (_, i) => `id-${i}`),
  });
  t.is(manyIds.status, 413);
  t.regex(manyIds.body.error.message, /more than 250000/);

  // About 3 MB of ids: more than Temporal carries, but the keep list is staged in Redis (F16). This
  // API has no worker: the cleanup is accepted and runs once one does (202 after CLEANUP_WAIT_SECONDS).
  const longIds = await post('/ingest/cleanup', {
    sourceOrigin: 'shop',
    keepExternalIds: Array.from({ length: 6_000 }, (_, i) => `${i}-${'x'.repeat(490)}`),
  });
  t.is(longIds.status, 202);
  t.is(longIds.body.status, 'running');
});

test('ingestion needs the iq:import scope, and search iq:read', async (t) => {
  const { headers: readOnly, kb } = await (async () => {
    const tenant = (await api.admin('POST', '/admin/tenants', { name: 'Reader' })).body;
    const key = (await api.admin('POST', `/admin/tenants/${tenant.id}/api-keys`, { name: 'r', scopes: ['iq:read'] })).body;
    return { headers: { 'x-api-key': key.key as string }, kb: tenant.defaultKnowledgeBaseId as string };
  })();
  const ingest = await api.request('POST', '/ingest', { body: valid(), headers: readOnly });
  t.is(ingest.status, 403);
  t.is(ingest.body.error.message, 'This API key lacks the iq:import scope.');
  t.is((await api.request('GET', '/ingest/jobs/shop-sku-1', { headers: readOnly })).status, 403);

  const { headers: importOnly } = await (async () => {
    const tenant = (await api.admin('POST', '/admin/tenants', { name: 'Importer' })).body;
    const key = (await api.admin('POST', `/admin/tenants/${tenant.id}/api-keys`, { name: 'i', scopes: ['iq:import'] })).body;
    return { headers: { 'x-api-key': key.key as string } };
  })();
  t.is((await api.request('GET', `/knowledge-bases/${kb}/search?q=x`, { headers: importOnly })).status, 403);
});

test('search wants a query and a limit of at most 50', async (t) => {
  const { headers: reader, kb } = await importingTenant(api);
  const noQuery = await api.request('GET', `/knowledge-bases/${kb}/search`, { headers: reader });
  t.is(noQuery.status, 400);
  t.deepEqual(noQuery.body.error.details, [{ path: '/q', message: 'is required' }]);
  const tooMany = await api.request('GET', `/knowledge-bases/${kb}/search?q=mug&limit=51`, { headers: reader });
  t.is(tooMany.status, 400);
  t.deepEqual(tooMany.body.error.details, [{ path: '/limit', message: 'must be <= 50' }]);
  const notNumber = await api.request('GET', `/knowledge-bases/${kb}/search?q=mug&limit=ten`, { headers: reader });
  t.is(notNumber.status, 400);
});

test('an unknown job is 404', async (t) => {
  const response = await api.request('GET', '/ingest/jobs/nobody-nothing', { headers });
  t.is(response.status, 404);
  t.is(response.body.error.code, 'not_found');
});
