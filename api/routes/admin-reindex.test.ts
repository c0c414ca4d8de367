import test from 'ava';
import { rebuildBody } from '#knowledge/text/rebuild.js';
import { collectionName } from '#knowledge/chunk-index.js';
import { createIngestionClient } from '#knowledge/ingestion-client.js';
import { createWeaviateClient } from '#platform/weaviate.js';
import { eventually } from '#testing/eventually.js';
import { createTemporalClient } from '#platform/temporal.js';
import { createTenantWithKey } from '#testing/api.js';
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
import { tearDown } from '#testing/teardown.js';

// A knowledge base embedded by the hashed embedder, re-indexed through the admin API after the
// service moved to the default model: the migration every deployment from before the model makes.

const oldSpace = { provider: 'local', model: 'hashed-ngrams-v1', dimensions: 512 };
const newSpace = { provider: 'local', model: 'all-MiniLM-L6-v2-int8', dimensions: 384 };

/** The service before the change (`before`: its worker is stopped once the items are in) and after it (`after`). */
let before: IngestionStack;
let after: IngestionStack;

test.before(async () => {
  before = await startIngestionStack({ EMBEDDINGS_PROVIDER: 'hashed', EMBEDDINGS_DIMENSIONS: '512' });
  after = await startIngestionStack(
    {
      EMBEDDINGS_PROVIDER: 'local',
      // The same service: the same Redis records, task queues and admin token.
      REDIS_PREFIX: before.api.config.redis.prefix,
      TEMPORAL_TASK_QUEUE: before.api.config.temporal.taskQueue,
      ADMIN_TOKEN: before.api.adminToken,
    },
    { worker: false },
  );
});
test.after.always(() => tearDown({ ...prefixed('after', after?.closingSteps), ...prefixed('before', before?.closingSteps) }));

const prefixed = (name: string, steps: Record<string, () => Promise<unknown>> = {}) =>
  Object.fromEntries(Object.entries(steps).map(([step, run]) => [`${name} ${step}`, run]));

const reindexPath = (tenantId: string, kb: string) => `/admin/tenants/${tenantId}/knowledge-bases/${kb}/reindex`;

/** Chunk texts of the knowledge base in a space's collection, by external id, in chunk order. */
async function chunksIn(space: typeof oldSpace, kb: string): Promise<Map<string, string[]>> {
  const weaviate = await createWeaviateClient(before.api.config.weaviate);
  try {
    const collection = weaviate.collections.get(collectionName(space)).withTenant(kb);
    const { objects } = await collection.query
      .fetchObjects({ limit: 1000 })
      .catch((error: Error) => (/tenant not found/.test(error.message) ? { objects: [] } : Promise.reject(error)));
    const byItem = new Map<string, Array<{ index: number; text: string }>>();
    for (const { properties } of objects) {
      const chunks = byItem.get(properties.externalId as string) ?? [];
      chunks.push({ index: properties.chunkIndex as number, text: properties.text as string });
      byItem.set(properties.externalId as string, chunks);
    }
    return new Map(
      [...byItem].map(([externalId, chunks]) => [externalId, chunks.sort((a, b) => a.index - b.index).map((c) => c.text)]),
    );
  } finally {
    await weaviate.close();
  }
}

const paragraphs = Array.from(
  { length: 30 },
  (_, i) => `Paragraph ${i} of the warranty terms covers repairs, returns and replacements in region ${i}.`,
).join('\n');

const products = [
  ...['kettle', 'toaster', 'blender', 'juicer', 'grinder', 'steamer'].map((name) =>
    item(name, { title: `The ${name}`, content: `A ${name} for the kitchen, with a two-year warranty.` }),
  ),
  item('warranty', { title: 'Warranty terms', content: paragraphs }),
  item('mixer', { title: 'The mixer', content: 'A stand mixer with a dough hook, discontinued.' }),
];

test.serial('a re-index embeds every source again in the new space, beside an ingestion of one of them', async (t) => {
  const { tenant, headers, kb } = await importingTenant(before.api);
  for (const product of products) t.is((await ingestAndWait(before.api, headers, product)).status, 'searchable');
  const oldChunks = await chunksIn(oldSpace, kb);
  t.is(oldChunks.size, products.length);
  t.true(oldChunks.get('warranty')!.length > 2, 'a source of several chunks');

  // The service moves to the new model: what the old one embedded is not found until re-indexed.
  await before.stopWorker();
  t.deepEqual(await search(after.api, headers, kb, 'kettle'), []);

  const started = await after.api.admin('POST', reindexPath(tenant.id, kb));
  t.is(started.status, 202);
  t.like(started.body, { workflowId: `reindex/${tenant.id}/${kb}`, state: 'running', sent: 0, completedAt: null });
  // Started again while it runs: the running one is the answer.
  const again = await after.api.admin('POST', reindexPath(tenant.id, kb));
  t.is(again.status, 202);
  t.is(again.body.workflowId, started.body.workflowId);
  t.is(again.body.startedAt, started.body.startedAt);

  // New versions of two items arrive while the re-index runs, each beside a re-embed request for the
  // item, one before and one after it (as the re-index sends them), so their workflows find both waiting.
  const temporal = createTemporalClient(after.api.config.temporal);
  t.teardown(() => temporal.close());
  const noJobs = {
    accept: async () => ({ generation: 1, previous: {} }),
    restore: async () => undefined,
    queued: () => undefined,
  };
  const ingestion = createIngestionClient(temporal.client, after.api.config.temporal.taskQueue, noJobs);
  const reembed = (externalId: string) =>
    ingestion.reembed({ tenantId: tenant.id, integrationId: 'shop', externalId }, { knowledgeBaseId: kb, sourceType: 'PRODUCT' });
  await reembed('mixer');
  const mixer = await ingest(
    after.api,
    headers,
    item('mixer', { title: 'The mixer', content: 'A planetary mixer, back in stock.' }),
  );
  const kettle = await ingest(
    after.api,
    headers,
    item('kettle', { title: 'The kettle', content: 'A gooseneck kettle for pour-over.' }),
  );
  await reembed('kettle');
  await after.startWorker();

  const progress = await eventually(
    async () => (await after.api.admin('GET', reindexPath(tenant.id, kb))).body,
    (body) => body.state === 'completed',
    { timeoutMs: 90_000, intervalMs: 250 },
  );
  t.like(progress, { workflowId: started.body.workflowId, state: 'completed', remaining: 0 });
  // The items re-ingested meanwhile may have been in the new space before the re-index counted.
  t.true(progress.total >= products.length - 2 && progress.total <= products.length, `total ${progress.total}`);
  t.true(progress.sent >= progress.total - 2, `sent ${progress.sent}`);
  t.is(progress.startedAt, started.body.startedAt);
  t.regex(progress.completedAt, /Z$/);

  const jobs = await waitForJobs(after.api, headers, [mixer.jobId, kettle.jobId]);
  t.is(jobs.get(mixer.jobId)?.status, 'searchable');
  t.is(jobs.get(kettle.jobId)?.status, 'searchable');
  for (const name of ['toaster', 'blender', 'juicer', 'grinder', 'steamer']) {
    const [hit] = await search(after.api, headers, kb, name);
    t.is(hit?.externalId, name, name);
  }
  t.is((await search(after.api, headers, kb, 'region 27 replacements'))[0]?.externalId, 'warranty');
  // The new versions, never the old ones.
  t.is((await search(after.api, headers, kb, 'planetary'))[0]?.externalId, 'mixer');
  // The old text is gone: a search for it may still find the mixer by meaning, never its old words.
  const oldWords = await search(after.api, headers, kb, 'dough hook discontinued');
  t.false(
    oldWords.some((hit) => /dough hook|discontinued/.test(hit.snippet)),
    JSON.stringify(oldWords),
  );
  t.is((await search(after.api, headers, kb, 'gooseneck'))[0]?.externalId, 'kettle');
  const kitchen = await search(after.api, headers, kb, 'kitchen two-year warranty', 50);
  t.true(kitchen.length >= 5);
  t.false(kitchen.some((hit) => hit.externalId === 'kettle'));

  // The old space holds nothing of the knowledge base; the new one the same text as before (cut
  // again where a chunk did not fit the model's window).
  t.is((await chunksIn(oldSpace, kb)).size, 0);
  const newChunks = await chunksIn(newSpace, kb);
  t.is(newChunks.size, products.length);
  for (const [externalId, texts] of oldChunks) {
    if (externalId !== 'mixer' && externalId !== 'kettle')
      t.is(rebuildBody(newChunks.get(externalId)!), rebuildBody(texts), externalId);
  }
  t.deepEqual(newChunks.get('mixer'), ['A planetary mixer, back in stock.']);
  t.deepEqual(newChunks.get('kettle'), ['A gooseneck kettle for pour-over.']);

  // Nothing is left to do: a new re-index completes at once, with nothing to send.
  await after.api.admin('POST', reindexPath(tenant.id, kb));
  const next = await eventually(
    async () => (await after.api.admin('GET', reindexPath(tenant.id, kb))).body,
    (body) => body.state === 'completed',
    { timeoutMs: 30_000, intervalMs: 100 },
  );
  t.like(next, { state: 'completed', total: 0, sent: 0, remaining: 0 });
  t.not(next.startedAt, progress.startedAt);
});

test.serial('the progress of a knowledge base never re-indexed is 404; another tenant’s is 403', async (t) => {
  await after.startWorker();
  const { tenant, kb } = await importingTenant(after.api);
  const missing = await after.api.admin('GET', reindexPath(tenant.id, kb));
  t.is(missing.status, 404);
  t.is(missing.body.error.code, 'not_found');

  const other = await createTenantWithKey(after.api, ['iq:read']);
  for (const method of ['GET', 'POST']) {
    const response = await after.api.admin(method, reindexPath(other.tenant.id, kb));
    t.is(response.status, 403, method);
    t.is(response.body.error.code, 'forbidden');
  }
  const unknown = await after.api.admin('POST', reindexPath(tenant.id, '00000000-0000-4000-8000-000000000000'));
  t.is(unknown.status, 404);

  const withoutToken = await after.api.request('POST', reindexPath(tenant.id, kb));
  t.is(withoutToken.status, 401);
  const withKey = await after.api.request('GET', reindexPath(tenant.id, kb), { headers: other.headers });
  t.is(withKey.status, 401);
});
