/**
 * `npm run bench:ingest [-- --items 2000 --singles 50]`, with `STACK_PROFILE=production` for the
 * Temporal server on PostgreSQL. On a stack of its own it measures, in one run:
 *  - the limit: N workflows that each run one no-op activity, started as fast as the API starts items;
 *  - ingestion: N realistic items through POST /ingest/bulk until every job is `searchable`;
 *  - Temporal history events per item;
 *  - POST-to-searchable latency of single items on the idle stack (p50, p95).
 */
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Client, Connection } from '@temporalio/client';
import pLimit from 'p-limit';
import { createClient } from 'redis';
import { createAdminClient } from '#cli/admin-client.js';
import { readOrCreateLocalSecrets } from '#platform/local-secrets.js';
import { ingestWorkflowId, jobIdOf } from '#workflows/ids.js';
import { startAppProcesses, startTsProcess } from '../deploy/local/app-processes.js';
import { log } from '../deploy/local/output.js';
import { httpOk, stopLeftovers, waitUntil } from '../deploy/local/processes.js';
import { stackPlan, startStack, type Profile } from '../deploy/local/stack.js';
import { benchItem } from './corpus.js';

const { values: args } = parseArgs({
  options: { items: { type: 'string', default: '2000' }, singles: { type: 'string', default: '50' } },
});
const items = Number(args.items);
const singles = Number(args.singles);
const profile = (process.env.STACK_PROFILE ?? 'dev') as Profile;
const production = profile === 'production';
const processes = production ? 2 : 1;
const concurrency = Number(process.env.INGEST_CONCURRENCY || 8);

const plan = stackPlan('bench', join('.data', `bench-${profile}`), profile);
stopLeftovers(plan.paths.run);
for (const dir of ['weaviate', 'temporal', 'logs']) rmSync(join(plan.paths.data, dir), { recursive: true, force: true });
const secrets = readOrCreateLocalSecrets(plan.paths.data);
const stack = await startStack(plan);

const run = randomUUID().slice(0, 8);
const prefix = `bench-${run}`;
const taskQueue = `bench-${run}`;
const apiPort = 27300;
const apiUrl = `http://127.0.0.1:${apiPort}`;
const env = {
  ...process.env,
  ...stack.env,
  NODE_ENV: 'development',
  LOG_LEVEL: 'warn',
  PORT: String(apiPort),
  ADMIN_TOKEN: secrets.adminToken,
  SECRETS_KEY: secrets.secretsKey,
  REDIS_PREFIX: prefix,
  TEMPORAL_TASK_QUEUE: taskQueue,
  INGEST_CONCURRENCY: String(concurrency),
  RATE_LIMIT_PER_MINUTE: '1000000',
};

const redis = createClient({ url: stack.env.REDIS_URL });
await redis.connect();
const connection = await Connection.connect({ address: stack.env.TEMPORAL_ADDRESS! });
const temporal = new Client({ connection });
const started: Array<{ stop(): Promise<void> }> = [];

try {
  log(`profile ${profile}: ${processes} API and ${processes} worker process(es), ${concurrency} items at once per worker`);

  // The limit: the same number of workflows, one no-op activity each, on the same server.
  const counterKey = `${prefix}:noop-done`;
  const noopQueue = `${taskQueue}-noop`;
  for (let i = 0; i < processes; i++) {
    started.push(
      startTsProcess(
        `noop-worker-${i + 1}`,
        [join('bench', 'noop-worker.ts')],
        { ...env, BENCH_TASK_QUEUE: noopQueue, BENCH_COUNTER_KEY: counterKey },
        plan.paths,
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
  await Promise.all(started.splice(0).map((p) => p.stop()));

  // Ingestion through the real API and workers.
  const apps = startAppProcesses({ env, paths: plan.paths, apiProcesses: processes, workerProcesses: processes, cdn: false });
  started.push(...apps.all);
  await waitUntil('the API', () => httpOk(`${apiUrl}/ready`), { timeoutMs: 90_000, process: apps.api });
  const admin = createAdminClient({ baseUrl: apiUrl, adminToken: secrets.adminToken });
  const tenant = await admin.request<{ id: string }>('POST', '/admin/tenants', { name: 'Bench' });
  const key = await admin.request<{ key: string }>('POST', `/admin/tenants/${tenant.id}/api-keys`, {
    name: 'bench',
    scopes: ['iq:import'],
  });
  const headers = { 'content-type': 'application/json', 'x-api-key': key.key };
  // Workers bundle their workflows at start: let them be polling before the clock starts.
  await new Promise((resolve) => setTimeout(resolve, 5_000));

  const batch = Array.from({ length: items }, (_, i) => benchItem(i, 'bulk'));
  const ingestStart = performance.now();
  const postLimit = pLimit(4);
  await Promise.all(
    Array.from({ length: Math.ceil(items / 100) }, (_, b) =>
      postLimit(async () => {
        const response = await fetch(`${apiUrl}/ingest/bulk`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ items: batch.slice(b * 100, b * 100 + 100) }),
        });
        if (!response.ok) throw new Error(`bulk answered ${response.status}: ${await response.text()}`);
      }),
    ),
  );
  const acceptedSeconds = (performance.now() - ingestStart) / 1000;
  const jobKeys = batch.map((item) => `${prefix}:job:${tenant.id}:${jobIdOf(item)}`);
  // Poll only what is still pending, once a second: the measuring must not load the machine.
  let pending = jobKeys;
  await waitFor(async () => {
    const statuses = await statusesOf(pending);
    pending = pending.filter((_, i) => statuses[i] !== 'searchable' && statuses[i] !== 'failed');
    return pending.length === 0;
  }, 1_000);
  const ingestSeconds = (performance.now() - ingestStart) / 1000;
  const failed = (await statusesOf(jobKeys)).filter((status) => status === 'failed').length;

  // History events per item, from a sample of the item workflows.
  const sample = batch.filter((_, i) => i % Math.max(1, Math.floor(items / 20)) === 0).slice(0, 20);
  const events = await Promise.all(
    sample.map(async (item) => {
      const history = await temporal.workflow.getHandle(ingestWorkflowId({ tenantId: tenant.id, ...item })).fetchHistory();
      return history.events?.length ?? 0;
    }),
  );

  // POST-to-searchable of single items on the now idle stack.
  const latencies: number[] = [];
  for (let i = 0; i < singles; i++) {
    const item = benchItem(i, 'single');
    const posted = performance.now();
    const response = await fetch(`${apiUrl}/ingest`, { method: 'POST', headers, body: JSON.stringify(item) });
    if (!response.ok) throw new Error(`ingest answered ${response.status}`);
    const jobKey = `${prefix}:job:${tenant.id}:${jobIdOf(item)}`;
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
  await Promise.all(started.map((p) => p.stop()));
  const keys: string[] = [];
  for await (const key of redis.scanIterator({ MATCH: `${prefix}:*`, COUNT: 1000 })) keys.push(key);
  for (let i = 0; i < keys.length; i += 1000) await redis.del(keys.slice(i, i + 1000));
  await redis.quit();
  await connection.close();
  await stack.stop();
}

async function statusesOf(jobKeys: string[]): Promise<Array<string | null>> {
  const statuses: Array<string | null> = [];
  for (let i = 0; i < jobKeys.length; i += 1000) {
    const multi = redis.multi();
    for (const key of jobKeys.slice(i, i + 1000)) multi.hGet(key, 'status');
    statuses.push(...((await multi.exec()) as unknown as Array<string | null>));
  }
  return statuses;
}

async function waitFor(done: () => Promise<boolean>, intervalMs = 100, timeoutMs = 30 * 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error('the benchmark did not finish in time');
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;
}

function round(value: number, digits = 1): number {
  return Math.round(value * 10 ** digits) / 10 ** digits;
}
