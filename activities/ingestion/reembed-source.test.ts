import { randomUUID } from 'node:crypto';
import { MockActivityEnvironment } from '@temporalio/testing';
import { DefaultLogger } from '@temporalio/worker';
import { ApplicationFailure } from '@temporalio/common';
import test from 'ava';
import { createChunkIndex, type ChunkIndex } from '#knowledge/chunk-index.js';
import { createHashedEmbedder } from '#knowledge/embeddings/hashed-embedder.js';
import { createJobStore } from '#knowledge/jobs.js';
import { createSourceStore } from '#knowledge/sources.js';
import { createWeaviateClient, type WeaviateClient } from '#platform/weaviate.js';
import { testConfig } from '#testing/config.js';
import { useTestRedis } from '#testing/redis.js';
import { sourceKeyOf } from '#workflows/ids.js';
import type { IngestOperation } from '#workflows/ingestion/types.js';
import { createIngestionActivities } from './ingest-source.js';
import { createReembedActivities } from './reembed-source.js';

// The activity against the real Redis and Weaviate: a source ingested by one embedder (the hashed
// one at 512 dimensions), re-embedded by another (256: another space, another collection).

const testRedis = useTestRedis(test);
let weaviate: WeaviateClient;
const knowledgeBases: string[] = [];

const oldEmbedder = createHashedEmbedder(512);
const newEmbedder = createHashedEmbedder(256);

test.before(async () => {
  weaviate = await createWeaviateClient(testConfig().weaviate);
});
test.after.always(async () => {
  if (!weaviate) return;
  for (const index of [createChunkIndex(weaviate, oldEmbedder.space), createChunkIndex(weaviate, newEmbedder.space)]) {
    await (await index.collection()).tenants.remove(knowledgeBases);
  }
  await weaviate.close();
});

function setUp() {
  const redis = testRedis.redis();
  const sources = createSourceStore(redis, testRedis.prefix);
  const jobs = createJobStore(redis, testRedis.prefix);
  const oldIndex = createChunkIndex(weaviate, oldEmbedder.space);
  const newIndex = createChunkIndex(weaviate, newEmbedder.space);
  const before = createIngestionActivities({
    jobs,
    sources,
    chunkIndex: oldIndex,
    embedder: oldEmbedder,
  });
  const after = createReembedActivities({ sources, chunkIndex: newIndex, embedder: newEmbedder });
  const knowledgeBaseId = randomUUID();
  knowledgeBases.push(knowledgeBaseId);
  const identity = { tenantId: randomUUID(), integrationId: 'cms', externalId: `page-${randomUUID()}` };
  const sourceKey = sourceKeyOf(identity);
  // The activity's own logs (a refused source is logged) are not this test's output.
  const env = new MockActivityEnvironment({}, { logger: new DefaultLogger('ERROR') });
  /** The source's chunks in an index's collection, in chunk order. */
  const chunksIn = async (index: ChunkIndex) => {
    const chunksOfKb = (await index.collection()).withTenant(knowledgeBaseId);
    const { objects } = await chunksOfKb.query.fetchObjects({
      filters: chunksOfKb.filter.byProperty('sourceKey').equal(sourceKey),
      limit: 1000,
    });
    return objects.map((object) => object.properties).sort((a, b) => a.chunkIndex - b.chunkIndex);
  };
  return {
    sources,
    jobs,
    oldIndex,
    newIndex,
    knowledgeBaseId,
    identity,
    sourceKey,
    chunksIn,
    ingest: () => env.run(before.ingestSource, { identity, generation: randomUUID(), operation: warrantyTerms(knowledgeBaseId) }),
    reembed: (generation: string, kb = knowledgeBaseId) =>
      env.run(after.reembedSource, { identity, knowledgeBaseId: kb, generation }),
  };
}

/** A version of several chunks, with the metadata a record keeps. */
const warrantyTerms = (knowledgeBaseId: string): IngestOperation => ({
  kind: 'ingest',
  knowledgeBaseId,
  sourceType: 'PAGE',
  sourceOrigin: 'cms',
  data: {
    title: 'Warranty terms',
    content: Array.from({ length: 60 }, (_, i) => `Paragraph ${i} covers repairs and returns in region ${i}.`).join('\n'),
    url: 'https://example.com/warranty',
    metadata: { section: 'legal' },
    hash: 'h1',
  },
  options: {},
});

test('embeds a source again from its own chunks, and a retry finishes what it left', async (t) => {
  const bed = setUp();
  t.is(await bed.ingest(), 'searchable');
  const job = await bed.jobs.get(bed.identity.tenantId, `cms-${bed.identity.externalId}`);
  const old = await bed.sources.get(bed.identity.tenantId, bed.sourceKey);
  const oldChunks = await bed.chunksIn(bed.oldIndex);
  t.true(oldChunks.length > 2);

  const generation = randomUUID();
  t.true(await bed.reembed(generation));
  const record = await bed.sources.get(bed.identity.tenantId, bed.sourceKey);
  t.like(record, {
    ...old,
    generation,
    embeddingDimensions: 256,
    updatedAt: record!.updatedAt,
  });
  t.deepEqual(
    (await bed.chunksIn(bed.newIndex)).map((chunk) => [chunk.generation, chunk.text]),
    oldChunks.map((chunk) => [generation, chunk.text]),
  );
  t.deepEqual(await bed.chunksIn(bed.oldIndex), []);
  // The job is not the re-embed's business: it stays as the ingestion left it.
  t.deepEqual(await bed.jobs.get(bed.identity.tenantId, `cms-${bed.identity.externalId}`), job);

  // A retry after the commit, with the old chunks still there (the attempt died before deleting them).
  await bed.oldIndex.insertGeneration(
    bed.knowledgeBaseId,
    { ...old!, sourceKey: bed.sourceKey },
    oldChunks.map((chunk) => ({
      index: chunk.chunkIndex,
      text: chunk.text,
      vector: new Array(512).fill(0.1),
      sentences: { texts: [], vectors: [] },
    })),
  );
  t.true(await bed.reembed(generation));
  t.deepEqual(await bed.chunksIn(bed.oldIndex), []);
  t.is((await bed.sources.get(bed.identity.tenantId, bed.sourceKey))?.generation, generation);

  // Asked again (another request): it is in the current space already.
  t.false(await bed.reembed(randomUUID()));
  t.is((await bed.sources.get(bed.identity.tenantId, bed.sourceKey))?.generation, generation);
});

test('a source gone, or in another knowledge base, is left alone', async (t) => {
  const bed = setUp();
  t.false(await bed.reembed(randomUUID()));
  t.is(await bed.ingest(), 'searchable');
  const old = await bed.sources.get(bed.identity.tenantId, bed.sourceKey);
  t.false(await bed.reembed(randomUUID(), randomUUID()));
  t.deepEqual(await bed.sources.get(bed.identity.tenantId, bed.sourceKey), old);
});

test('a source whose chunks are gone fails for good, and stays as it was', async (t) => {
  const bed = setUp();
  t.is(await bed.ingest(), 'searchable');
  const old = await bed.sources.get(bed.identity.tenantId, bed.sourceKey);
  await bed.oldIndex.deleteSourceChunks(bed.knowledgeBaseId, bed.sourceKey);
  const error = await t.throwsAsync(bed.reembed(randomUUID()), { instanceOf: ApplicationFailure });
  t.like(error, { type: 'chunks_missing', nonRetryable: true });
  t.deepEqual(await bed.sources.get(bed.identity.tenantId, bed.sourceKey), old);
});
