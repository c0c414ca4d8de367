import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { startWeaviate } from '#deploy/local/services/weaviate.js';
import type { RunningService } from '#deploy/local/services/service.js';
import { startTestApi } from '#testing/api.js';
import { finishedJobs, importingTenant, item, startIngestionStack, waitForJobs } from '#testing/ingestion.js';
import { stillAfter } from '#testing/eventually.js';
import { freePort } from '#testing/processes.js';

const products = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, i) =>
    item(`${prefix}-${i}`, { title: `${prefix} ${i}`, content: `Item ${i} of the ${prefix} batch.` }),
  );

test('items accepted while no worker runs are kept, and all become searchable once one starts', async (t) => {
  const stack = await startIngestionStack({}, { worker: false });
  try {
    const { headers, kb } = await importingTenant(stack.api);
    const accepted = await stack.api.request('POST', '/ingest/bulk', { body: { items: products('offline', 30) }, headers });
    t.is(accepted.status, 200);
    const queued = await stack.api.request('GET', `/ingest/jobs/${accepted.body.jobIds[0]}`, { headers });
    t.is(queued.body.status, 'queued');

    await stack.startWorker();
    const jobs = await waitForJobs(stack.api, headers, accepted.body.jobIds, 120_000);
    t.is([...jobs.values()].filter((job) => job.status === 'searchable').length, 30);
    const search = await stack.api.request('GET', `/knowledge-bases/${kb}/search?q=offline+batch&limit=50`, { headers });
    t.is(search.body.results.length, 30);
  } finally {
    await stack.close();
  }
});

test('a worker stopped in the middle of a run loses nothing: the next one finishes every item', async (t) => {
  const stack = await startIngestionStack({ INGEST_CONCURRENCY: '2' });
  try {
    const { headers } = await importingTenant(stack.api);
    const accepted = await stack.api.request('POST', '/ingest/bulk', { body: { items: products('interrupted', 60) }, headers });
    await waitForJobs(stack.api, headers, accepted.body.jobIds.slice(0, 3));
    await stack.stopWorker();
    await stack.startWorker();
    const jobs = await waitForJobs(stack.api, headers, accepted.body.jobIds, 120_000);
    t.is([...jobs.values()].filter((job) => job.status === 'searchable').length, 60);
  } finally {
    await stack.close();
  }
});

test('with Weaviate stopped mid-run, items wait and finish when it returns; search says it is unavailable', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'weaviate-fault-'));
  const paths = { data: dir, logs: dir, run: dir };
  const ports = { http: await freePort(), grpc: await freePort(), gossip: await freePort(), raft: await freePort() };
  let weaviate: RunningService | undefined = await startWeaviate(ports, paths);
  const stack = await startIngestionStack({ WEAVIATE_URL: weaviate.url, WEAVIATE_GRPC_PORT: String(ports.grpc) });
  try {
    const { headers, kb } = await importingTenant(stack.api);
    const first = await stack.api.request('POST', '/ingest/bulk', { body: { items: products('before', 5) }, headers });
    await waitForJobs(stack.api, headers, first.body.jobIds);

    await weaviate.process!.stop();
    weaviate = undefined;
    const during = await stack.api.request('POST', '/ingest/bulk', { body: { items: products('during', 20) }, headers });
    t.is(during.status, 200, 'accepting needs Temporal, not Weaviate');
    const search = await stack.api.request('GET', `/knowledge-bases/${kb}/search?q=batch`, { headers });
    t.is(search.status, 503);
    t.is(search.body.error.message, 'Weaviate is unavailable; retry with backoff.');
    const waiting = await stillAfter(
      () => finishedJobs(stack.api, headers, during.body.jobIds),
      (finished) => finished.size === 0,
      { forMs: 4_000, intervalMs: 250 },
    );
    t.is(waiting.size, 0, 'no item is searchable, or failed, while Weaviate is away');

    weaviate = await startWeaviate(ports, paths);
    const jobs = await waitForJobs(stack.api, headers, during.body.jobIds, 120_000);
    t.is([...jobs.values()].filter((job) => job.status === 'searchable').length, 20);
    const after = await stack.api.request('GET', `/knowledge-bases/${kb}/search?q=batch&limit=50`, { headers });
    t.is(after.body.results.length, 25, 'the items indexed before the outage survived it');
  } finally {
    await stack.close();
    await weaviate?.process?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('with Temporal unreachable, ingestion answers 503 naming it and leaves no job behind', async (t) => {
  const api = await startTestApi({ TEMPORAL_ADDRESS: `127.0.0.1:${await freePort()}` });
  try {
    const { headers } = await importingTenant(api);
    const response = await api.request('POST', '/ingest', {
      body: item('lost', { title: 'Lost', content: 'Never queued.' }),
      headers,
    });
    t.is(response.status, 503);
    t.is(response.body.error.code, 'unavailable');
    t.regex(response.body.error.message, /^Temporal is unavailable/);
    t.is((await api.request('GET', '/ingest/jobs/shop-lost', { headers })).status, 404);
  } finally {
    await api.close();
  }
});
