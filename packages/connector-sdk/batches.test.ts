import test from 'ava';
import { chunk } from './batches.js';
import { BatchIngestionError } from './errors.js';
import { makeItems, setup } from './test-helpers.js';
import type { IngestProgress } from './types.js';

test('ingestAll sends 250 items as 3 bulk calls and reports progress after each', async (t) => {
  const { server, client } = await setup();
  t.teardown(() => server.close());
  const progress: IngestProgress[] = [];

  const jobIds = await client.ingestAll(makeItems(250), { batchSize: 100, onProgress: (p) => progress.push(p) });

  t.is(server.requests.length, 3);
  t.true(server.requests.every((request) => request.path === '/ingest/bulk'));
  t.deepEqual(
    server.requests.map((request) => (request.body as { items: unknown[] }).items.length),
    [100, 100, 50],
  );
  t.is(jobIds.length, 250);
  t.is(jobIds[249], 'shop-p249');
  t.deepEqual(progress, [
    { sent: 100, total: 250, batches: 1 },
    { sent: 200, total: 250, batches: 2 },
    { sent: 250, total: 250, batches: 3 },
  ]);
});

test('ingestAll defaults to batches of 100', async (t) => {
  const { server, client } = await setup();
  t.teardown(() => server.close());
  await client.ingestAll(makeItems(201));
  t.is(server.requests.length, 3);
});

test('batchSize outside 50..100 is rejected before any request', async (t) => {
  const { server, client } = await setup();
  t.teardown(() => server.close());
  for (const batchSize of [49, 101, 0, 75.5]) {
    await t.throwsAsync(client.ingestAll(makeItems(10), { batchSize }), { instanceOf: RangeError, message: /50 to 100/ });
  }
  await t.notThrowsAsync(client.ingestAll(makeItems(10), { batchSize: 50 }));
  t.is(server.requests.length, 1);
});

test('a failed batch is reported, the rest are still sent, and the end is a BatchIngestionError', async (t) => {
  const { server, client } = await setup();
  t.teardown(() => server.close());
  server.script.push({ status: 200, body: { status: 'queued', jobCount: 50, estimatedTime: '5s', jobIds: ['a'] } });
  server.script.push({ status: 400, body: { error: { code: 'invalid_payload', message: 'Bad item.' } } });
  const progress: IngestProgress[] = [];

  const error = await t.throwsAsync(client.ingestAll(makeItems(150), { batchSize: 50, onProgress: (p) => progress.push(p) }), {
    instanceOf: BatchIngestionError,
  });
  t.is(server.requests.length, 3);
  t.deepEqual(progress.at(-1), { sent: 100, total: 150, batches: 3, failedBatches: 1 });
  t.is(error?.failures.length, 1);
  t.is(error?.failures[0]?.batch, 1);
  t.is(error?.failures[0]?.externalIds[0], 'p50');
  t.is(error?.jobIds.length, 51);
});

test('an auth failure stops the remaining batches', async (t) => {
  const { server, client } = await setup();
  t.teardown(() => server.close());
  server.script.push({ status: 401, body: { error: { code: 'unauthorized', message: 'Invalid key.' } } });
  await t.throwsAsync(client.ingestAll(makeItems(150), { batchSize: 50 }), { instanceOf: BatchIngestionError });
  t.is(server.requests.length, 1);
});

test('chunk groups sync and async sources', async (t) => {
  const collected: number[][] = [];
  for await (const batch of chunk([1, 2, 3, 4, 5], 2)) collected.push(batch);
  t.deepEqual(collected, [[1, 2], [3, 4], [5]]);
  async function* source() {
    yield 1;
    yield 2;
  }
  const fromAsync: number[][] = [];
  for await (const batch of chunk(source(), 2)) fromAsync.push(batch);
  t.deepEqual(fromAsync, [[1, 2]]);
});
