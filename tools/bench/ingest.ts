/**
 * `npm run bench:ingest [-- --items 1000 --singles 40 --bulk 2000 --parts …]`, with
 * `STACK_PROFILE=production` for the Temporal server on PostgreSQL. On a stack of its own it
 * measures, in one run (`--parts` picks some, comma-separated):
 *  - `limit`: N workflows that each run one no-op activity, started as fast as the API starts items;
 *  - `hashed`, `model`: N realistic items through POST /ingest/bulk until every job is `searchable`,
 *    with the hashed embedder and with the default model, each as a ratio to the limit; for the
 *    model, where an item's time goes (Temporal's waits, the activity, the model's queue and runs,
 *    Weaviate, Redis), the CPU of every process (and of the worker's threads), the worker's event-loop
 *    delay and resident memory, and Temporal history events per item;
 *  - `singles`: POST-to-searchable of single items on the idle stack (p50, p95);
 *  - `lanes`: the same while a `--bulk` import runs, the import given `high` and `low`, by the same
 *    tenant and by another;
 *  - `fairness`: a second tenant's import of 10 % as many items, sent while a first tenant's runs:
 *    its share of the throughput meanwhile (a fair share of two is half);
 *  - `docs`: a real documentation corpus (the Debian FAQ and Reference, `debian-docs.ts`), from the
 *    first POST to all searchable;
 *  - `models`: the model alone, in this process: milliseconds per chunk, one session of two threads
 *    against two of one.
 */
import { parseArgs } from 'node:util';
import { loadMiniLmEmbedder } from '#knowledge/embeddings/minilm/minilm-embedder.js';
import { defaultModelDir } from '#knowledge/embeddings/minilm/model-files.js';
import { chunkText } from '#knowledge/text/chunk.js';
import { normalizeText } from '#knowledge/text/normalize.js';
import { ingestWorkflowId, jobIdOf } from '#workflows/ids.js';
import { scrape, sumOf, type Sample } from '#testing/prometheus-text.js';
import { log } from '#deploy/local/output.js';
import { benchItem } from './corpus.js';
import { debianDocsCorpus } from './debian-docs.js';
import {
  createMeasuredTenant,
  ingestAll,
  percentile,
  round,
  startMeasuredStack,
  waitFor,
  type MeasuredStack,
} from './measured-stack.js';
import { measureNoopLimit } from './noop-limit.js';
import { cpuMeter, residentBytes } from '#testing/process-usage.js';

const allParts = ['limit', 'hashed', 'model', 'singles', 'lanes', 'fairness', 'docs', 'models'] as const;
const { values: args } = parseArgs({
  options: {
    items: { type: 'string', default: '1000' },
    singles: { type: 'string', default: '40' },
    bulk: { type: 'string', default: '2000' },
    parts: { type: 'string', default: allParts.join(',') },
  },
});
const items = Number(args.items);
const singles = Number(args.singles);
const bulkSize = Number(args.bulk);
const parts = new Set(args.parts.split(','));
const concurrency = Number(process.env.INGEST_CONCURRENCY || 8);
const offset = Number(process.env.STACK_PORT_OFFSET || 0);
const metricsPorts = { METRICS_PORT: 27410 + offset, WORKER_METRICS_PORT: 27411 + offset, TEMPORAL_METRICS_PORT: 27412 + offset };
const stack = await startMeasuredStack('bench', {
  INGEST_CONCURRENCY: String(concurrency),
  METRICS_ENABLED: 'true',
  ...Object.fromEntries(Object.entries(metricsPorts).map(([name, port]) => [name, String(port)])),
});
const { profile } = stack;
// The stage breakdown scrapes one worker's metrics: the production profile's two each scrape apart.
const processes = profile === 'production' ? 2 : 1;
const report: Record<string, Record<string, string | number>> = {};
const batch = Array.from({ length: items }, (_, i) => benchItem(i, 'bulk'));

try {
  log(`profile ${profile}: ${processes} API and ${processes} worker process(es), ${concurrency} items at once per worker`);
  const summary: Record<string, string | number> = { profile, items };
  report['bench:ingest'] = summary;

  let limitRate = NaN;
  if (parts.has('limit')) {
    limitRate = (await measureNoopLimit(stack, { workflows: items, processes })).perSecond;
    summary['limit: no-op workflows/s'] = round(limitRate);
  }

  if (parts.has('hashed')) {
    const apps = await stack.startApps(processes, { EMBEDDINGS_PROVIDER: 'hashed' });
    const started = performance.now();
    const { failed } = await ingestAll(stack, await createMeasuredTenant(stack, ['iq:import']), batch);
    const rate = items / ((performance.now() - started) / 1000);
    summary['hashed embedder: items/s'] = round(rate);
    summary['hashed embedder: ratio to the limit'] = round(rate / limitRate, 2);
    summary['hashed embedder: failed items'] = failed;
    await Promise.all(apps.all.map((process) => process.stop()));
  }

  const apps = await stack.startApps(processes);
  const worker = apps.workers[0]!;
  const residentAtStart = residentBytes(worker.pid!);
  const tenant = await createMeasuredTenant(stack, ['iq:import']);
  const other = await createMeasuredTenant(stack, ['iq:import']);

  if (parts.has('model')) {
    const usage = cpuMeter(
      {
        API: apps.api.pid,
        worker: worker.pid,
        Temporal: stack.services.services.find((service) => service.name === 'temporal')?.process?.pid,
        Weaviate: stack.services.services.find((service) => service.name === 'weaviate')?.process?.pid,
      },
      { worker: worker.pid },
    );
    const before = await workerSamples();
    const started = performance.now();
    const { acceptedSeconds, failed } = await ingestAll(stack, tenant, batch);
    const seconds = (performance.now() - started) / 1000;
    const after = await workerSamples();
    const { wall, cpu, threads } = usage.stop();
    const rate = items / seconds;
    Object.assign(summary, {
      'default model: items/s': round(rate),
      'default model: ratio to the limit': round(rate / limitRate, 2),
      'default model: seconds to accept (POST)': round(acceptedSeconds),
      'default model: seconds to all searchable': round(seconds),
      'default model: failed items': failed,
      'history events per item': await historyEventsPerItem(stack, tenant.tenantId),
      'worker event-loop delay p99 / max (ms)': `${round(1000 * sumOf(after, 'kb_nodejs_eventloop_lag_p99_seconds'))} / ${round(1000 * sumOf(after, 'kb_nodejs_eventloop_lag_max_seconds'))}`,
      'worker resident memory at start / after the import (MB)': `${Math.round(residentAtStart / 2 ** 20)} / ${Math.round(residentBytes(worker.pid!) / 2 ** 20)}`,
    });
    report['where an item’s time goes (default model; ms per item, summed over concurrent items)'] = stages(before, after, items);
    report['CPU seconds during the import (share of all measured)'] = cpuShares(cpu, wall);
    report['worker threads: CPU seconds'] = Object.fromEntries(
      Object.entries(threads.worker!)
        .filter(([, seconds]) => seconds >= 0.05)
        .sort(([, a], [, b]) => b - a)
        .map(([name, seconds]) => [name, round(seconds)]),
    );
  }

  if (parts.has('singles')) {
    const latencies = await singleItems(tenant, singles, 'idle');
    report['single item, idle stack (ms)'] = {
      p50: Math.round(percentile(latencies, 0.5)),
      p95: Math.round(percentile(latencies, 0.95)),
    };
  }

  if (parts.has('lanes')) {
    const lanes: Record<string, string | number> = {};
    for (const priority of ['high', 'low'] as const) {
      for (const [who, sender] of [
        ['the same tenant', tenant],
        ['another tenant', other],
      ] as const) {
        const importItems = Array.from({ length: bulkSize }, (_, i) =>
          benchItem(i, `lane-${priority}-${who.replaceAll(' ', '-')}`),
        ).map((item) => ({ ...item, data: { ...item.data, content: `${item.data.content} (${priority})` } }));
        const imported = ingestAll(stack, tenant, importItems.map(withPriority(priority)));
        // Let the import fill the queue first.
        await new Promise((resolve) => setTimeout(resolve, 3_000));
        const latencies = await singleItems(sender, singles, `during-${priority}-${who.replaceAll(' ', '-')}`);
        await imported;
        lanes[`bulk ${priority}, single by ${who}: p50 / p95 ms`] =
          `${Math.round(percentile(latencies, 0.5))} / ${Math.round(percentile(latencies, 0.95))}`;
      }
    }
    report[`single items while a ${bulkSize}-item import runs (accepted to searchable)`] = lanes;
  }

  if (parts.has('fairness')) report['fairness between tenants'] = await fairness();

  if (parts.has('docs')) {
    const { items: sections, summary: corpus } = await debianDocsCorpus();
    const started = performance.now();
    const { failed } = await ingestAll(stack, await createMeasuredTenant(stack, ['iq:import']), sections);
    const seconds = (performance.now() - started) / 1000;
    report['real documentation'] = {
      corpus: `${corpus.packages}: ${corpus.sections} sections, ${corpus.textCharacters} characters of text`,
      'seconds from the first POST to all searchable': round(seconds),
      'items/s': round(sections.length / seconds, 2),
      failed,
    };
  }

  await Promise.all(apps.all.map((process) => process.stop()));
  if (parts.has('models')) report['the model alone, in this process'] = await modelAlone();

  for (const [title, table] of Object.entries(report)) {
    console.log(`\n${title}`);
    console.table(table);
  }
  const figures = report['bench:ingest']!;
  const single = report['single item, idle stack (ms)'];
  console.log('\ngoals (docs/ingestion.md):');
  console.log(`  default model >= 15 items/s: ${goal(Number(figures['default model: items/s']) >= 15)}`);
  if (single)
    console.log(`  single item p50 <= 250 ms, p95 <= 600 ms: ${goal(Number(single.p50) <= 250 && Number(single.p95) <= 600)}`);
} finally {
  await stack.stop();
}

function goal(met: boolean): string {
  return met ? 'met' : 'NOT met';
}

function withPriority(priority: 'high' | 'low') {
  return <T extends { data: object }>(item: T) => ({ ...item, options: { priority } });
}

/** The worker's own metrics and its Temporal SDK's, in one list. */
async function workerSamples(): Promise<Sample[]> {
  const [own, temporal] = await Promise.all([
    scrape(`http://127.0.0.1:${metricsPorts.WORKER_METRICS_PORT}/metrics`),
    scrape(`http://127.0.0.1:${metricsPorts.TEMPORAL_METRICS_PORT}/metrics`),
  ]);
  return [...own, ...temporal];
}

/**
 * Milliseconds per item of each stage, from the metrics' sums before and after: times of concurrent
 * items add up, so a stage's share is of the activity's time, not of the wall clock.
 */
function stages(before: Sample[], after: Sample[], count: number): Record<string, number> {
  const delta = (name: string, labels: Record<string, string> = {}) => sumOf(after, name, labels) - sumOf(before, name, labels);
  const ms = (seconds: number) => round((1000 * seconds) / count, 1);
  const ingestQueue = { task_queue: `${stack.prefix}-ingest` };
  const activity = delta('temporal_activity_execution_latency_seconds_sum', ingestQueue);
  const model = delta('kb_dependency_call_seconds_sum', { system: 'model' });
  const weaviate = delta('kb_dependency_call_seconds_sum', { system: 'weaviate' });
  const redis = delta('kb_dependency_call_seconds_sum', { system: 'redis' });
  return {
    'workflow task: waiting to start': ms(delta('temporal_workflow_task_schedule_to_start_latency_seconds_sum', ingestQueue)),
    'workflow task: running': ms(delta('temporal_workflow_task_execution_latency_seconds_sum', ingestQueue)),
    'activity: waiting to start': ms(delta('temporal_activity_schedule_to_start_latency_seconds_sum', ingestQueue)),
    'activity: running': ms(activity),
    '… the model (its queue and runs)': ms(model),
    '…… its runs (CPU of the model thread)': ms(delta('kb_model_run_seconds_sum', { lane: 'bulk' })),
    '… Weaviate (writes, deletes)': ms(weaviate),
    '… Redis (record, job status)': ms(redis),
    '… the rest (normalize, chunk, serialize)': ms(activity - model - weaviate - redis),
    'model runs per item': round(delta('kb_model_run_seconds_count', { lane: 'bulk' }) / count, 2),
  };
}

function cpuShares(cpu: Record<string, number>, wall: number): Record<string, string> {
  const total = Object.values(cpu).reduce((a, b) => a + b, 0);
  return {
    ...Object.fromEntries(
      Object.entries(cpu).map(([name, seconds]) => [name, `${round(seconds)} s (${Math.round((100 * seconds) / total)} %)`]),
    ),
    'all measured': `${round(total)} s of ${round(wall * 2)} s on 2 cores (Redis, the machine's, not counted)`,
  };
}

async function historyEventsPerItem(measured: MeasuredStack, tenantId: string): Promise<number> {
  const sample = batch.filter((_, i) => i % Math.max(1, Math.floor(items / 20)) === 0).slice(0, 20);
  const events = await Promise.all(
    sample.map(async (item) => {
      const history = await measured.temporal.workflow.getHandle(ingestWorkflowId({ tenantId, ...item })).fetchHistory();
      return history.events?.length ?? 0;
    }),
  );
  return round(events.reduce((a, b) => a + b, 0) / events.length);
}

/** POST-to-searchable of `count` single items sent one after another (each once the one before is searchable). */
async function singleItems(
  sender: { tenantId: string; headers: Record<string, string> },
  count: number,
  name: string,
): Promise<number[]> {
  const latencies: number[] = [];
  for (let i = 0; i < count; i++) {
    const item = benchItem(i, `single-${name}`);
    const posted = performance.now();
    const response = await fetch(`${stack.apiUrl}/ingest`, {
      method: 'POST',
      headers: sender.headers,
      body: JSON.stringify(item),
    });
    if (!response.ok) throw new Error(`ingest answered ${response.status}`);
    const jobKey = `${stack.prefix}:job:${sender.tenantId}:${jobIdOf(item)}`;
    await waitFor(async () => (await stack.redis.hGet(jobKey, 'status')) === 'searchable', 5);
    latencies.push(performance.now() - posted);
  }
  return latencies.sort((a, b) => a - b);
}

/**
 * A first tenant imports `--bulk` items; five seconds later a second tenant imports a tenth as many.
 * Meanwhile each gets a share of the throughput: with tenants taking turns the second's is about half
 * until it is done, where first come first served would give it nothing until the first is done.
 */
async function fairness(): Promise<Record<string, string | number>> {
  const [first, second] = [await createMeasuredTenant(stack, ['iq:import']), await createMeasuredTenant(stack, ['iq:import'])];
  const large = Array.from({ length: bulkSize }, (_, i) => benchItem(i, 'fair-large'));
  const small = Array.from({ length: Math.round(bulkSize / 10) }, (_, i) => benchItem(i, 'fair-small'));
  const largeDone = ingestAll(stack, first, large);
  await new Promise((resolve) => setTimeout(resolve, 5_000));
  const firstBefore = await searchableCount(first.tenantId, large);
  const started = performance.now();
  await ingestAll(stack, second, small);
  const seconds = (performance.now() - started) / 1000;
  const firstMeanwhile = (await searchableCount(first.tenantId, large)) - firstBefore;
  await largeDone;
  return {
    [`first tenant: ${large.length} items`]: 'sent first',
    [`second tenant: ${small.length} items, seconds to all searchable`]: round(seconds),
    "first tenant's items done meanwhile": firstMeanwhile,
    "second tenant's share meanwhile (fair: 0.5)": round(small.length / (small.length + firstMeanwhile), 2),
  };
}

async function searchableCount(tenantId: string, of: Array<{ integrationId: string; externalId: string }>): Promise<number> {
  const multi = stack.redis.multi();
  for (const item of of) multi.hGet(`${stack.prefix}:job:${tenantId}:${jobIdOf(item)}`, 'status');
  return ((await multi.exec()) as unknown as Array<string | null>).filter((status) => status === 'searchable').length;
}

/**
 * The model alone, on the stack's now idle machine: the bench items' chunks, all at once as an import
 * hands them over, with one session of two threads and with two sessions of one thread each; and a
 * question alone.
 */
async function modelAlone(): Promise<Record<string, string | number>> {
  const results: Record<string, string | number> = {};
  for (const [name, options] of [
    ['1 session × 2 threads', { sessions: 1, threadsPerSession: 2 }],
    ['2 sessions × 1 thread', { sessions: 2, threadsPerSession: 1 }],
  ] as const) {
    const model = await loadMiniLmEmbedder(defaultModelDir(), options);
    const chunks = batch
      .slice(0, 120)
      .flatMap((item) => chunkText(item.data.title, normalizeText(item.data.content), { tokenWindow: model.tokenWindow }))
      .map((chunk) => chunk.embedText)
      .slice(0, 240);
    await model.embed(chunks.slice(0, 8));
    const cpu = process.cpuUsage();
    const started = performance.now();
    await model.embed(chunks);
    const used = process.cpuUsage(cpu);
    results[
      `${name}: ms per chunk (${Math.round(chunks.reduce((sum, text) => sum + model.tokenWindow!.count(text), 0) / chunks.length)} word pieces on average)`
    ] = round((performance.now() - started) / chunks.length, 2);
    results[`${name}: CPU ms per chunk`] = round((used.user + used.system) / 1000 / chunks.length, 1);
    const single: number[] = [];
    for (const text of ['How long does shipping take?', 'waterproof hiking boots', 'reset my password'].flatMap((q) => [
      q,
      `${q}?`,
    ])) {
      const at = performance.now();
      await model.embed([text], { lane: 'query' });
      single.push(performance.now() - at);
    }
    results[`${name}: a question alone (ms, median)`] = round(
      percentile(
        single.sort((a, b) => a - b),
        0.5,
      ),
      1,
    );
  }
  return results;
}
