import { Client, Connection } from '@temporalio/client';
import test from 'ava';
import { eventually } from '#testing/eventually.js';
import { importingTenant, item, startIngestionStack, waitForJobs } from '#testing/ingestion.js';
import { startTestWorker, type TestWorker } from '#testing/worker.js';
import { ingestWorkflowId } from '#workflows/ids.js';

// A deployment that scales the embedding model apart: `core` workers run everything but the items'
// activities, `embedder` workers those alone (WORKER_ROLE, docs/scaling.md). Real API, Temporal,
// Weaviate and Redis.

test('with core workers only, an item waits with its activity scheduled; an embedder worker then makes it searchable', async (t) => {
  const stack = await startIngestionStack({}, { worker: false });
  const workers: TestWorker[] = [];
  const connection = await Connection.connect({ address: stack.api.config.temporal.address });
  t.teardown(async () => {
    for (const worker of workers) await worker.stop();
    await connection.close();
    await stack.close();
  });
  workers.push(await startTestWorker({ ...stack.api.config, workerRole: 'core' }));
  const { tenant, headers } = await importingTenant(stack.api);
  const posted = await stack.api.request('POST', '/ingest', {
    body: item('boots', { title: 'Hiking boots', content: 'Waterproof leather hiking boots with a grippy sole.' }),
    headers,
  });
  t.is(posted.status, 200);

  // The core worker ran the item's workflow, which scheduled the activity no core worker takes.
  const handle = new Client({ connection }).workflow.getHandle(
    ingestWorkflowId({ tenantId: tenant.id, integrationId: 'shop', externalId: 'boots' }),
  );
  await eventually(
    async () => (await handle.fetchHistory()).events?.some((event) => event.activityTaskScheduledEventAttributes) ?? false,
    Boolean,
    { timeoutMs: 30_000, intervalMs: 200 },
  );
  const waiting = await stack.api.request('GET', `/ingest/jobs/${posted.body.jobId}`, { headers });
  t.is(waiting.body.status, 'queued');

  workers.push(await startTestWorker({ ...stack.api.config, workerRole: 'embedder' }));
  const jobs = await waitForJobs(stack.api, headers, [posted.body.jobId], 60_000);
  t.is(jobs.get(posted.body.jobId)?.status, 'searchable');
  const found = await stack.api.request('GET', `/knowledge-bases/${tenant.defaultKnowledgeBaseId}/search?q=boots`, { headers });
  t.deepEqual(
    found.body.results.map((result: { externalId: string }) => result.externalId),
    ['boots'],
  );
});
