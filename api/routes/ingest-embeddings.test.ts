import test from 'ava';
import { collectionName } from '#knowledge/chunk-index.js';
import { createWeaviateClient } from '#platform/weaviate.js';
import { startFakeEmbeddingsServer, type FakeEmbeddingsServer } from '#testing/fake-embeddings-server.js';
import { importingTenant, ingestAndWait, item, search, startIngestionStack, type IngestionStack } from '#testing/ingestion.js';

// The OpenAI-compatible provider, against a local fake of the embeddings API that counts its calls.
let embeddings: FakeEmbeddingsServer;
let stack: IngestionStack;
const apiKey = 'sk-test-embeddings';

test.before(async () => {
  embeddings = await startFakeEmbeddingsServer({ apiKey, dimensions: 64 });
  stack = await startIngestionStack({
    EMBEDDINGS_PROVIDER: 'openai',
    EMBEDDINGS_BASE_URL: embeddings.baseUrl,
    EMBEDDINGS_API_KEY: apiKey,
    EMBEDDINGS_MODEL: 'text-embedding-3-small',
    EMBEDDINGS_DIMENSIONS: '64',
  });
});
test.after.always(async () => {
  await stack?.close();
  await embeddings?.close();
});

test.serial('metadataOnly replaces url, metadata and sourceData without calling the embedder', async (t) => {
  const { headers, kb } = await importingTenant(stack.api);
  const data = {
    title: 'Espresso machine',
    content: 'Pulls a rich espresso in thirty seconds.',
    url: 'https://shop.example.com/old',
  };
  t.is((await ingestAndWait(stack.api, headers, item('espresso', { ...data, metadata: { price: 300 } }))).status, 'searchable');

  const callsBefore = embeddings.calls.length;
  const updated = await ingestAndWait(
    stack.api,
    headers,
    item(
      'espresso',
      { ...data, url: 'https://shop.example.com/new', metadata: { price: 250 }, sourceData: { inStock: false } },
      { options: { metadataOnly: true } },
    ),
  );
  t.is(updated.status, 'metadata_updated');
  t.is(embeddings.calls.length, callsBefore, 'no embeddings call for a metadata-only update');

  const [hit] = await search(stack.api, headers, kb, 'espresso');
  t.like(hit, {
    externalId: 'espresso',
    url: 'https://shop.example.com/new',
    metadata: { price: 250 },
    sourceData: { inStock: false },
  });
});

test.serial('metadataOnly for an item never ingested fails with not_indexed', async (t) => {
  const { headers } = await importingTenant(stack.api);
  const job = await ingestAndWait(
    stack.api,
    headers,
    item('ghost', { title: 'Ghost', content: 'Never ingested.' }, { options: { metadataOnly: true } }),
  );
  t.is(job.status, 'failed');
  t.is(job.error?.code, 'not_indexed');
});

test.serial('the provider and model are recorded with each chunk, in a collection of their own', async (t) => {
  const { headers, kb } = await importingTenant(stack.api);
  const callsBefore = embeddings.calls.length;
  t.is(
    (await ingestAndWait(stack.api, headers, item('model', { title: 'Model', content: 'Which model embedded me?' }))).status,
    'searchable',
  );
  const call = embeddings.calls.slice(callsBefore).find((c) => c.status === 200);
  t.is(call?.model, 'text-embedding-3-small');
  t.is(call?.dimensions, 64);

  const weaviate = await createWeaviateClient(stack.api.config.weaviate);
  try {
    const name = collectionName({ provider: 'openai', model: 'text-embedding-3-small', dimensions: 64 });
    const { objects } = await weaviate.collections.get(name).withTenant(kb).query.fetchObjects({ includeVector: true });
    t.is(objects.length, 1);
    t.like(objects[0]!.properties, {
      externalId: 'model',
      embeddingProvider: 'openai',
      embeddingModel: 'text-embedding-3-small',
    });
    t.is((objects[0]!.vectors.default as number[]).length, 64);
  } finally {
    await weaviate.close();
  }
});

test.serial('transient provider errors are retried until the item is searchable', async (t) => {
  const { headers } = await importingTenant(stack.api);
  // More failures than the client's own retries: the activity's retry policy has to take over.
  embeddings.failNext(7, 500, { retryAfterMs: 10 });
  const job = await ingestAndWait(stack.api, headers, item('flaky', { title: 'Flaky', content: 'Survives a provider outage.' }));
  t.is(job.status, 'searchable');
});

test.serial('a provider that refuses the request fails the item for good, with its code', async (t) => {
  const { headers } = await importingTenant(stack.api);
  embeddings.failNext(1, 400);
  const job = await ingestAndWait(stack.api, headers, item('refused', { title: 'Refused', content: 'The provider says no.' }));
  t.is(job.status, 'failed');
  t.is(job.error?.code, 'embedding_rejected');
  t.false(JSON.stringify(job).includes(apiKey));

  // The failure is not sticky: the next version goes through.
  t.is(
    (await ingestAndWait(stack.api, headers, item('refused', { title: 'Refused', content: 'Now it says yes.' }))).status,
    'searchable',
  );
});
