import { randomUUID } from 'node:crypto';
import test from 'ava';
import weaviateClient from 'weaviate-client';
import { answerSentencesOf } from '#answering/extractive/composer.js';
import { createQuestionAnswerer, createSentenceMemory } from '#answering/index.js';
import { createExtractiveComposer } from '#answering/extractive/composer.js';
import { eventually } from '#testing/eventually.js';
import { createWeaviateClient, type WeaviateClient } from '#platform/weaviate.js';
import { testConfig } from '#testing/config.js';
import { useTestRedis } from '#testing/redis.js';
import { createChunkIndex } from './chunk-index.js';
import { createHashedEmbedder } from './embeddings/hashed-embedder.js';
import { loadMiniLmEmbedder } from './embeddings/minilm/minilm-embedder.js';
import { defaultModelDir } from './embeddings/minilm/model-files.js';
import type { Embedder } from './embeddings/index.js';
import { createKnowledgeSearch } from './search.js';
import { createSourceWriter } from './source-writer.js';
import { createSourceStore } from './sources.js';
import { normalizeText } from './text/normalize.js';

// Against the real Redis and Weaviate: the source writer writes each chunk without its sentences'
// vectors; the first answer that reads a chunk embeds them (all-MiniLM-L6-v2, whatever embeds the
// chunks: here the hashed embedder) and keeps them on it, and retrieval hands them to the next answer.
// Then a chunk collection older than sentence vectors gains their property.

const testRedis = useTestRedis(test);
let weaviate: WeaviateClient;
let minilm: Embedder;
const chunkEmbedder = createHashedEmbedder(96);
const knowledgeBases: string[] = [];

test.before(async () => {
  weaviate = await createWeaviateClient(testConfig().weaviate);
  minilm = await loadMiniLmEmbedder(defaultModelDir());
});
test.after.always(async () => {
  if (!weaviate) return;
  await (await createChunkIndex(weaviate, chunkEmbedder.space).collection()).tenants.remove(knowledgeBases);
  await weaviate.close();
});

test('a chunk is written without its sentences’ vectors; an answer that reads it keeps them, and retrieval hands them over', async (t) => {
  const redis = testRedis.redis();
  const sources = createSourceStore(redis, testRedis.prefix);
  const chunkIndex = createChunkIndex(weaviate, chunkEmbedder.space);
  const writer = createSourceWriter({ sources, chunkIndex, embedder: chunkEmbedder, now: () => new Date() });
  const knowledgeBaseId = randomUUID();
  knowledgeBases.push(knowledgeBaseId);
  const identity = { tenantId: randomUUID(), integrationId: 'cms', externalId: 'warranty' };
  const content = Array.from(
    { length: 40 },
    (_, i) => `Repairs in region ${i} take ${i + 2} days. Parts for region ${i} ship from the nearest depot.`,
  ).join('\n');
  await writer.write(
    {
      identity,
      knowledgeBaseId,
      generation: randomUUID(),
      sourceType: 'PAGE',
      sourceOrigin: '',
      title: 'Warranty repairs',
      body: normalizeText(content),
      fields: { url: null, metadata: null, sourceData: null, hash: null },
      lane: 'bulk',
    },
    undefined,
  );
  t.true((await sources.get(identity.tenantId, 'cms/warranty'))!.chunkCount > 2);

  const search = createKnowledgeSearch({ chunkIndex, embedder: chunkEmbedder, sources, minSimilarity: 0 });
  const retrieve = () =>
    search.retrieve(identity.tenantId, knowledgeBaseId, 'repairs in region 7', {
      maxSources: 1,
      maxPassagesPerSource: 2,
      minSimilarity: 0,
    });
  const [fresh] = await retrieve();
  t.is(fresh!.sentenceVectors, undefined);
  t.deepEqual(
    fresh!.chunks!.map((chunk) => chunk.sentencesKept),
    [false, false],
  );

  // An answer reads the two chunks: their sentences are embedded, then kept.
  const embedded: string[][] = [];
  const sentences = { ...minilm, embed: (texts: string[]) => (embedded.push(texts), minilm.embed(texts)) };
  const kept: unknown[] = [];
  const answer = createQuestionAnswerer({
    search,
    generator: createExtractiveComposer({ embedder: sentences }),
    retrieval: { maxSources: 1, maxPassagesPerSource: 2 },
    evidence: { minSimilarity: 0, minCoverage: 0, confidentSimilarity: 2, minSentenceSimilarity: 0 },
    sentences,
    memory: { ...createSentenceMemory({ chunkIndex, sentences }), onError: (error) => kept.push(error) },
  });
  const reply = await answer(
    { tenantId: identity.tenantId, knowledgeBaseId, question: 'repairs in region 7', locale: 'en' },
    { token() {}, reset() {} },
  );
  t.is(reply.outcome, 'answered');
  const [source] = await eventually(retrieve, ([found]) => found!.chunks!.every((chunk) => chunk.sentencesKept), {
    timeoutMs: 10_000,
    intervalMs: 50,
  });
  t.deepEqual(kept, [], 'no error keeping them');

  // The sentences of both chunks are there, each with the vector the model gives it now.
  const texts = answerSentencesOf(source!.title, source!.text);
  t.true(texts.length > 10);
  t.is(source!.sentenceVectors?.size, texts.length);
  const expected = await minilm.embed(texts);
  texts.forEach((text, i) => {
    const stored = source!.sentenceVectors!.get(text);
    t.truthy(stored, text);
    t.true(stored!.every((value, d) => Math.abs(value - expected[i]![d]!) < 1e-6));
  });

  // The next answer from them embeds its question only (this embedder has no cache: the rest is kept).
  embedded.length = 0;
  await answer(
    { tenantId: identity.tenantId, knowledgeBaseId, question: 'repairs in region 7', locale: 'en' },
    { token() {}, reset() {} },
  );
  t.true(embedded.length > 0);
  t.true(
    embedded.every((call) => call.length === 1 && !call[0]!.startsWith('Warranty repairs')),
    JSON.stringify(embedded),
  );
});

test('a chunk collection made before sentence vectors were stored gains the property and keeps its chunks', async (t) => {
  const space = { provider: 'test', model: `migration-${randomUUID().slice(0, 8)}`, dimensions: 4 };
  const index = createChunkIndex(weaviate, space);
  const name = index.name;
  await weaviate.collections.create({
    name,
    vectorizers: weaviateClient.configure.vectors.selfProvided(),
    multiTenancy: weaviateClient.configure.multiTenancy({ enabled: true, autoTenantCreation: true }),
    properties: [
      { name: 'sourceKey', dataType: 'text', tokenization: 'field' },
      { name: 'generation', dataType: 'text', tokenization: 'field' },
      { name: 'text', dataType: 'text' },
      { name: 'chunkIndex', dataType: 'int' },
    ],
  });
  t.teardown(() => weaviate.collections.delete(name));
  const old = (await weaviate.collections
    .get(name)
    .withTenant('kb')
    .data.insert({
      properties: { sourceKey: 'cms/a', generation: 'g1', text: 'Written before.', chunkIndex: 0 },
      vectors: [1, 0, 0, 0],
    })) as string;

  const collection = await index.collection();
  t.true((await collection.config.get()).properties.some((p) => p.name === 'sentenceVectors' && p.dataType === 'blob'));
  // Another process finds it there already.
  await t.notThrowsAsync(createChunkIndex(weaviate, space).collection());
  // The old chunk has no sentence vectors; a new one has none until they are kept on it.
  await index.insertGeneration(
    'kb',
    {
      sourceKey: 'cms/b',
      generation: 'g1',
      integrationId: 'cms',
      externalId: 'b',
      sourceType: 'PAGE',
      sourceOrigin: '',
      title: 'B',
      embeddingProvider: 'test',
      embeddingModel: space.model,
    },
    [{ index: 0, text: 'Written after.', vector: [0, 1, 0, 0] }],
  );
  const [hit] = await index.hybridSearch('kb', 'written after', [0, 1, 0, 0], { limit: 1, maxVectorDistance: 2 });
  t.is(hit!.properties.text, 'Written after.');
  t.false('sentenceVectors' in hit!.properties);
  t.is((await index.sentenceVectorsOf('kb', [hit!.id])).get(hit!.id)?.size, 0);
  await index.keepSentenceVectors('kb', hit!.id, ['B\n\nWritten after.'], [[0.5, 0.5]]);
  // A chunk gone meanwhile stays gone.
  const gone = randomUUID();
  await index.keepSentenceVectors('kb', gone, ['B\n\nGone.'], [[1, 0]]);
  const stored = await index.sentenceVectorsOf('kb', [old, hit!.id, gone]);
  t.is(stored.get(old)?.size, 0);
  t.deepEqual(stored.get(hit!.id)?.get('B\n\nWritten after.'), [0.5, 0.5]);
  t.is(stored.size, 2);
  // The chunk's other properties are as they were.
  const [again] = await index.hybridSearch('kb', 'written after', [0, 1, 0, 0], { limit: 1, maxVectorDistance: 2 });
  t.is(again!.properties.title, 'B');
  t.is(again!.properties.generation, 'g1');
});
