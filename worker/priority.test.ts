import test from 'ava';
import { importingTenant, item, startIngestionStack, waitForJobs } from '#testing/ingestion.js';

test('a high-priority item overtakes a backlog of low-priority ones', async (t) => {
  // One slot per priority, and the backlog queued before any worker polls, so the order is visible.
  const stack = await startIngestionStack({ INGEST_CONCURRENCY: '1' }, { worker: false });
  try {
    const { headers } = await importingTenant(stack.api);
    const low = Array.from({ length: 40 }, (_, i) =>
      item(
        `low-${i}`,
        { title: `Background ${i}`, content: `A background sync item, number ${i}.` },
        { options: { priority: 'low' } },
      ),
    );
    const backlog = await stack.api.request('POST', '/ingest/bulk', { body: { items: low }, headers });
    const urgent = await stack.api.request('POST', '/ingest', {
      body: item('urgent', { title: 'Urgent', content: 'Edited by a person a moment ago.' }, { options: { priority: 'high' } }),
      headers,
    });

    await stack.startWorker();
    const jobs = await waitForJobs(stack.api, headers, [...backlog.body.jobIds, urgent.body.jobId], 120_000);
    const finishedAt = (jobId: string) => Date.parse(jobs.get(jobId)!.updatedAt);
    const urgentAt = finishedAt(urgent.body.jobId);
    const lowBeforeUrgent = backlog.body.jobIds.filter((jobId: string) => finishedAt(jobId) < urgentAt).length;
    t.true(lowBeforeUrgent <= 5, `${lowBeforeUrgent} of 40 low-priority items finished before the high-priority one`);
  } finally {
    await stack.close();
  }
});
