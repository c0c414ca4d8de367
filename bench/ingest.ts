/**
 * `npm run bench:ingest [-- --items 2000 --singles 50]`, with `STACK_PROFILE=production` for the
 * Temporal server on PostgreSQL. On a stack of its own it measures, in one run:
 *  - the limit: N workflows that each run one no-op activity, started as fast as the API starts items;
 *  - ingestion: N realistic items through POST /ingest/bulk until every job is `searchable`;
 *  - Temporal history events per item;
 *  - POST-to-searchable latency of single items on the idle stack (p50, p95).
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pLimit from 'p-limit';
import { ingestWorkflowId, jobIdOf } from '#workflows/ids.js';
import { startTsProcess } from '../deploy/local/app-processes.js';
import { log } from '../deploy/local/output.js';
import { benchItem } from './corpus.js';
import { createMeasuredTenant, ingestAll, percentile, round, startMeasuredStack, waitFor } from './measured-stack.js';

const { values: args } = parseArgs({
  options: { items: { type: 'string', default: '2000' }, singles: { type: 'string', default: '50' } },
});
const items = Number(args.items);
const singles = Number(args.singles);
const concurrency = Number(process.env.INGEST_CONCURRENCY || 8);
const stack = await startMeasuredStack('bench', { INGEST_CONCURRENCY: String(concurrency) });
const { profile, redis, temporal, prefix, env } = stack;
const processes = profile === 'production' ? 2 : 1;

const noopWorkers: Array<{ stop(): Promise<void> }> = [];
stack.track({ stop: () => Promise.all(noopWorkers.map((p) => p.stop())).then(() => undefined) });
try {
  log(`profile ${profile}: ${processes} API and ${processes} worker process(es), ${concurrency} items at once per worker`);

  // The limit: the same number of workflows, one no-op activity each, on the same server.
  const counterKey = `${prefix}:noop-done`;
  const noopQueue = `${prefix}-noop`;
  for (let i = 0; i < processes; i++) {
    noopWorkers.push(
      startTsProcess(
        `noop-worker-${i + 1}`,
        [join('bench', 'noop-worker.ts')],
        { ...env, BENCH_TASK_QUEUE: noopQueue, BENCH_COUNTER_KEY: counterKey },
        stack.plan.paths,
      ),
    );
  }
  const limitStart = performance.now();
  const startLimit = pLimit(32);
  await Promise.all(
    Array.from({ length: items }, (_, i) =>
      startLimit(() =>
        temporal.workflow.start('benchNoopWorkflow', { workflowId: `${prefix}-noop-${i}`, taskQueue: noopQueue, args: [] }),
      ),
    ),
  );
  await waitFor(async () => Number(await redis.get(counterKey)) >= items, 250);
  const limitSeconds = (performance.now() - limitStart) / 1000;
  await Promise.all(noopWorkers.map((p) => p.stop()));

  // Ingestion through the real API and workers.
  await stack.startApps(processes);
  const tenant = await createMeasuredTenant(stack, ['iq:import']);
  const batch = Array.from({ length: items }, (_, i) => benchItem(i, 'bulk'));
  const ingestStart = performance.now();
  const { acceptedSeconds, failed } = await ingestAll(stack, tenant, batch);
  const ingestSeconds = (performance.now() - ingestStart) / 1000;

  // History events per item, from a sample of the item workflows.
  const sample = batch.filter((_, i) => i % Math.max(1, Math.floor(items / 20)) === 0).slice(0, 20);
  const events = await Promise.all(
    sample.map(async (item) => {
      const history = await temporal.workflow.getHandle(ingestWorkflowId({ tenantId: tenant.tenantId, ...item })).fetchHistory();
      return history.events?.length ?? 0;
    }),
  );

  // POST-to-searchable of single items on the now idle stack.
  const latencies: number[] = [];
  for (let i = 0; i < singles; i++) {
    const item = benchItem(i, 'single');
    const posted = performance.now();
    const response = await fetch(`${stack.apiUrl}/ingest`, {
      method: 'POST',
      headers: tenant.headers,
      body: JSON.stringify(item),
    });
    if (!response.ok) throw new Error(`ingest answered ${response.status}`);
    const jobKey = `${prefix}:job:${tenant.tenantId}:${jobIdOf(item)}`;
    await waitFor(async () => (await redis.hGet(jobKey, 'status')) === 'searchable', 5);
    latencies.push(performance.now() - posted);
  }
  latencies.sort((a, b) => a - b);

  const limitRate = items / limitSeconds;
  const ingestRate = items / ingestSeconds;
  const report = {
    profile,
    items,
    'limit: no-op workflows/s': round(limitRate),
    'ingested items/s': round(ingestRate),
    'ratio to the limit': round(ingestRate / limitRate, 2),
    'seconds to accept (POST)': round(acceptedSeconds),
    'seconds to all searchable': round(ingestSeconds),
    'failed items': failed,
    'history events per item': round(events.reduce((a, b) => a + b, 0) / events.length),
    'single item p50 ms': Math.round(percentile(latencies, 0.5)),
    'single item p95 ms': Math.round(percentile(latencies, 0.95)),
    'published estimate holds (>= 10 items/s)': ingestRate >= 10 ? 'yes' : 'NO',
  };
  console.log('\nbench:ingest');
  console.table(report);
} finally {
  await stack.stop();
}
