import { randomUUID } from 'node:crypto';
import test from 'ava';
import { useTestRedis } from '#testing/redis.js';
import { createSourceStore, isEmbeddedIn, type SourceRecord } from './sources.js';

const testRedis = useTestRedis(test);

const record = (knowledgeBaseId: string, sourceOrigin: string, externalId: string): SourceRecord => ({
  integrationId: 'cms',
  externalId,
  knowledgeBaseId,
  sourceType: 'PAGE',
  sourceOrigin,
  title: externalId,
  url: null,
  metadata: { big: 'x'.repeat(100) },
  sourceData: null,
  hash: null,
  generation: randomUUID(),
  chunkCount: 1,
  embeddingProvider: 'local',
  embeddingModel: 'hashed-ngrams-v1',
  embeddingDimensions: 512,
  updatedAt: new Date().toISOString(),
});

test('a knowledge base is listed a page at a time across its origin tags, and only it', async (t) => {
  const sources = createSourceStore(testRedis.redis(), testRedis.prefix);
  const tenantId = randomUUID();
  const [kb, otherKb] = [randomUUID(), randomUUID()];
  const expected: string[] = [];
  // No origin, an ordinary one, and one a Redis glob pattern would take for a pattern.
  for (const origin of ['', 'shop', 'cms*[1]?']) {
    for (let i = 0; i < 7; i++) {
      const sourceKey = `cms/${origin}-${i}`;
      await sources.commit(tenantId, sourceKey, record(kb, origin, `${origin}-${i}`));
      expected.push(sourceKey);
    }
  }
  await sources.commit(tenantId, 'cms/elsewhere', record(otherKb, 'shop', 'elsewhere'));
  await sources.commit(randomUUID(), 'cms/other-tenant', record(kb, 'shop', 'other-tenant'));

  const listed: string[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await sources.listPage(tenantId, kb, { cursor, count: 3 });
    listed.push(...page.sourceKeys);
    cursor = page.cursor;
    pages += 1;
  } while (cursor);
  t.deepEqual([...new Set(listed)].sort(), expected.sort());
  t.true(pages >= 3, `${pages} pages`);

  const [place, missing] = await sources.getPlaces(tenantId, ['cms/shop-1', 'cms/nothing']);
  t.like(place, {
    knowledgeBaseId: kb,
    sourceType: 'PAGE',
    embeddingProvider: 'local',
    embeddingModel: 'hashed-ngrams-v1',
    embeddingDimensions: 512,
  });
  t.is(missing, undefined);
  t.deepEqual(await sources.listPage(tenantId, randomUUID(), { count: 3 }), { sourceKeys: [] });
});

test('a source is in a space by provider, model and dimensions; an older record by provider and model', (t) => {
  const space = { provider: 'local', model: 'hashed-ngrams-v1', dimensions: 512 };
  const place = { embeddingProvider: 'local', embeddingModel: 'hashed-ngrams-v1' };
  t.true(isEmbeddedIn({ ...place, embeddingDimensions: 512 }, space));
  t.false(isEmbeddedIn({ ...place, embeddingDimensions: 256 }, space));
  t.true(isEmbeddedIn(place, space));
  t.false(isEmbeddedIn(place, { ...space, model: 'all-MiniLM-L6-v2-q4', dimensions: 384 }));
  t.false(isEmbeddedIn({ ...place, embeddingProvider: 'openai' }, space));
});
