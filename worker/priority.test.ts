import test from 'ava';
import { importingTenant, item, startIngestionStack, waitForJobs, type IngestionStack } from '#testing/ingestion.js';

// Temporal hands out the items' tasks by priority, and within a priority by tenant in turn
// (workflows/ingestion/task-queues.ts). One activity slot, and the backlog queued before any worker
// polls, so the order in which items finish is the order they were handed out.

const slotOfOne = { INGEST_CONCURRENCY: '1' };

function backlog(prefix: string, count: number, options: Record<string, unknown> = {}) {
  return Array.from({ length: count }, (_, i) =>
    item(`${prefix}-${i}`, { title: `${prefix} ${i}`, content: `An imported item, number ${i}.` }, options),
  );
}

/** When each job finished, once the worker has done them all. */
async function finishTimes(stack: IngestionStack, headers: Record<string, string>, jobIds: string[]) {
  const jobs = await waitForJobs(stack.api, headers, jobIds, 180_000);
  return (jobId: string) => Date.parse(jobs.get(jobId)!.updatedAt);
}

/** How many of an import of 40 (given `priority`) finish before an item sent alone after it. */
async function importedBeforeItemAlone(priority: 'high' | 'low'): Promise<number> {
  const stack = await startIngestionStack(slotOfOne, { worker: false });
  try {
    const { headers } = await importingTenant(stack.api);
    const imported = await stack.api.request('POST', '/ingest/bulk', {
      body: { items: backlog(`import-${priority}`, 40, { options: { priority } }) },
      headers,
    });
    const alone = await stack.api.request('POST', '/ingest', {
      body: item('edited', { title: 'Edited', content: 'A product description a person just corrected.' }),
      headers,
    });
    await stack.startWorker();
    const finishedAt = await finishTimes(stack, headers, [...imported.body.jobIds, alone.body.jobId]);
    return imported.body.jobIds.filter((jobId: string) => finishedAt(jobId) < finishedAt(alone.body.jobId)).length;
  } finally {
    await stack.close();
  }
}

test('an item sent alone overtakes a backlog of background items', async (t) => {
  const before = await importedBeforeItemAlone('low');
  t.true(before <= 5, `${before} of 40 background items finished before the item sent alone`);
});

test('an item sent alone overtakes an import given high priority: a bulk call is an import whatever its priority', async (t) => {
  const before = await importedBeforeItemAlone('high');
  t.true(before <= 5, `${before} of 40 imported items finished before the item sent alone`);
});

test("tenants take turns: a second tenant's small import is not kept waiting behind a first tenant's large one", async (t) => {
  const stack = await startIngestionStack(slotOfOne, { worker: false });
  t.teardown(() => stack.close());
  const first = await importingTenant(stack.api);
  const second = await importingTenant(stack.api);
  const large = await stack.api.request('POST', '/ingest/bulk', {
    body: { items: backlog('large', 40) },
    headers: first.headers,
  });
  const small = await stack.api.request('POST', '/ingest/bulk', {
    body: { items: backlog('small', 5) },
    headers: second.headers,
  });

  await stack.startWorker();
  const [firstAt, secondAt] = await Promise.all([
    finishTimes(stack, first.headers, large.body.jobIds),
    finishTimes(stack, second.headers, small.body.jobIds),
  ]);
  const secondDone = Math.max(...small.body.jobIds.map(secondAt));
  const firstMeanwhile = large.body.jobIds.filter((jobId: string) => firstAt(jobId) < secondDone).length;
  // In turn, the second tenant's 5 are done after about 5 of the first's; first come first served, after all 40.
  t.true(firstMeanwhile <= 15, `${firstMeanwhile} of the first tenant's 40 items finished before the second tenant's 5`);
});
