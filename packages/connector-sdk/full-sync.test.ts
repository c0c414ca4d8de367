import test from 'ava';
import { BatchIngestionError } from './errors.js';
import { fullSync, type SyncItem } from './full-sync.js';
import { setup } from './test-helpers.js';
import type { IngestProgress } from './types.js';

function syncItems(count: number): SyncItem[] {
  return Array.from({ length: count }, (_, index) => ({
    sourceType: 'ARTICLE',
    externalId: `a${index}`,
    data: { title: `Article ${index}`, content: `Body ${index}` },
  }));
}

async function* paged(count: number): AsyncGenerator<SyncItem> {
  for (const item of syncItems(count)) {
    await Promise.resolve();
    yield item;
  }
}

const target = { knowledgeBaseId: 'kb1', integrationId: 'blog', sourceOrigin: 'blog-sync' };

test('ingests every item stamped with the sync ids, then cleans up with every seen id', async (t) => {
  const { server, client } = await setup();
  t.teardown(() => server.close());
  const progress: IngestProgress[] = [];

  const result = await fullSync({ client, ...target, items: paged(120), batchSize: 50, onProgress: (p) => progress.push(p) });

  const bulk = server.requests.filter((request) => request.path === '/ingest/bulk');
  const cleanup = server.requests.filter((request) => request.path === '/ingest/cleanup');
  t.is(bulk.length, 3);
  t.is(cleanup.length, 1);
  t.is(server.requests.at(-1)?.path, '/ingest/cleanup', 'cleanup comes last');
  const sent = bulk.flatMap((request) => (request.body as { items: Array<Record<string, unknown>> }).items);
  t.true(
    sent.every((item) => item.knowledgeBaseId === 'kb1' && item.sourceOrigin === 'blog-sync' && item.integrationId === 'blog'),
  );
  t.deepEqual(cleanup[0]?.body, {
    knowledgeBaseId: 'kb1',
    sourceOrigin: 'blog-sync',
    keepExternalIds: syncItems(120).map((item) => item.externalId),
  });
  t.deepEqual(result, {
    ingested: 120,
    jobIds: syncItems(120).map((item) => `blog-${item.externalId}`),
    deleted: 2,
    orphanedExternalIds: ['gone-1', 'gone-2'],
  });
  t.deepEqual(
    progress.map((p) => [p.sent, p.total, p.batches]),
    [
      [50, undefined, 1],
      [100, undefined, 2],
      [120, undefined, 3],
    ],
  );
});

test('does not clean up when a batch fails for good, and rethrows', async (t) => {
  const { server, client, sleeps } = await setup();
  t.teardown(() => server.close());
  server.script.push({ status: 200, body: { status: 'queued', jobCount: 50, estimatedTime: '5s', jobIds: [] } });
  for (let i = 0; i < 4; i += 1) server.script.push({ status: 500, body: { error: { code: 'internal', message: 'Oops.' } } });

  const error = await t.throwsAsync(fullSync({ client, ...target, items: syncItems(120), batchSize: 50 }), {
    instanceOf: BatchIngestionError,
  });
  t.is(error?.failures[0]?.batch, 1);
  t.deepEqual(sleeps, [1000, 2000, 4000]);
  t.false(server.requests.some((request) => request.path === '/ingest/cleanup'));
});

test('refuses to clean up after an empty source unless allowEmpty is set', async (t) => {
  const { server, client } = await setup();
  t.teardown(() => server.close());

  await t.throwsAsync(fullSync({ client, ...target, items: [] }), { message: /saw no items/ });
  t.is(server.requests.length, 0);

  await fullSync({ client, ...target, items: [], allowEmpty: true });
  t.deepEqual(server.requests[0]?.body, { knowledgeBaseId: 'kb1', sourceOrigin: 'blog-sync', keepExternalIds: [] });
});
