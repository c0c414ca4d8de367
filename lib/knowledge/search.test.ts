import test from 'ava';
import type { ChunkIndex, ChunkProperties } from './chunk-index.js';
import { createKnowledgeSearch } from './search.js';
import type { SourceRecord, SourceStore } from './sources.js';

// The ranking rules of search, with Weaviate and Redis stubbed at the module's boundary (the real
// services are exercised by the ingestion tests).

const kb = 'kb-1';
const chunk = (sourceKey: string, generation: string, text: string): ChunkProperties => ({
  sourceKey,
  generation,
  integrationId: 'cms',
  externalId: sourceKey.split('/')[1]!,
  sourceType: 'PAGE',
  sourceOrigin: '',
  title: sourceKey,
  text,
  chunkIndex: 0,
  embeddingProvider: 'local',
  embeddingModel: 'test',
});
const record = (sourceKey: string, generation: string, knowledgeBaseId = kb) =>
  ({
    ...chunk(sourceKey, generation, ''),
    knowledgeBaseId,
    url: null,
    metadata: null,
    sourceData: null,
    hash: null,
    chunkCount: 1,
    updatedAt: '',
  }) as SourceRecord;

function searchOver(hits: Array<[ChunkProperties, number]>, records: Record<string, SourceRecord | undefined>) {
  return createKnowledgeSearch({
    embedder: { embed: async (texts) => texts.map(() => [1, 0]) },
    chunkIndex: { hybridSearch: async () => hits.map(([properties, score]) => ({ properties, score })) } as unknown as ChunkIndex,
    sources: { getMany: async (_tenant: string, keys: string[]) => keys.map((key) => records[key]) } as unknown as SourceStore,
    minSimilarity: 0.2,
  });
}

test('each source keeps its best current passage, even when a stale chunk of it ranks higher', async (t) => {
  const search = searchOver(
    [
      [chunk('cms/a', 'old', 'old text of a'), 0.9],
      [chunk('cms/a', 'new', 'new text of a'), 0.8],
      [chunk('cms/b', 'g1', 'best of b'), 0.7],
      [chunk('cms/b', 'g1', 'second of b'), 0.6],
    ],
    { 'cms/a': record('cms/a', 'new'), 'cms/b': record('cms/b', 'g1') },
  );
  const results = await search.search('tenant', kb, 'text', 10);
  t.deepEqual(
    results.map((r) => [r.externalId, r.snippet, r.score]),
    [
      ['a', 'new text of a', 0.8],
      ['b', 'best of b', 0.7],
    ],
  );
});

test('chunks of deleted sources, or of sources moved to another knowledge base, are left out', async (t) => {
  const search = searchOver(
    [
      [chunk('cms/gone', 'g1', 'deleted'), 0.9],
      [chunk('cms/moved', 'g1', 'moved away'), 0.8],
      [chunk('cms/here', 'g1', 'still here'), 0.5],
    ],
    { 'cms/moved': record('cms/moved', 'g1', 'kb-2'), 'cms/here': record('cms/here', 'g1') },
  );
  t.deepEqual(
    (await search.search('tenant', kb, 'x', 10)).map((r) => r.externalId),
    ['here'],
  );
});

test('the limit counts sources, not chunks', async (t) => {
  const hits: Array<[ChunkProperties, number]> = ['a', 'b', 'c'].flatMap((id, i) => [
    [chunk(`cms/${id}`, 'g', `${id}1`), 1 - i / 10] as [ChunkProperties, number],
    [chunk(`cms/${id}`, 'g', `${id}2`), 0.95 - i / 10] as [ChunkProperties, number],
  ]);
  const search = searchOver(hits, {
    'cms/a': record('cms/a', 'g'),
    'cms/b': record('cms/b', 'g'),
    'cms/c': record('cms/c', 'g'),
  });
  t.deepEqual(
    (await search.search('tenant', kb, 'x', 2)).map((r) => r.externalId),
    ['a', 'b'],
  );
});
