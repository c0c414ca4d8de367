/**
 * `npm run bench:ingest [-- --items 2000 --singles 50]`, with `STACK_PROFILE=production` for the
 * Temporal server on PostgreSQL. On a stack of its own it measures, in one run:
 *  - the limit: N workflows that each run one no-op activity, started as fast as the API starts items;
 *  - ingestion: N realistic items through POST /ingest/bulk until every job is `searchable`, once
 *    with the hashed embedder and once with the default model, each as a ratio to the limit;
 *  - Temporal history events per item;
 *  - POST-to-searchable latency of single items on the idle stack (p50, p95), with the default model;
 *  - the model alone, in this process: milliseconds per chunk at batch sizes 1, 8 and 32.
 */
import { parseArgs } from 'node:util';
import { loadMiniLmEmbedder } from '#knowledge/embeddings/minilm/minilm-embedder.js';
import { defaultModelDir } from '#knowledge/embeddings/minilm/model-files.js';
import { chunkText } from '#knowledge/text/chunk.js';
import { normalizeText } from '#knowledge/text/normalize.js';
import { ingestWorkflowId, jobIdOf } from '#workflows/ids.js';
import { log } from '../deploy/local/output.js';
import { benchItem } from './corpus.js';
import { createMeasuredTenant, ingestAll, percentile, round, startMeasuredStack, waitFor } from './measured-stack.js';
import { measureNoopLimit } from './noop-limit.js';

const { values: args } = parseArgs({
  options: { items: { type: 'string', default: '2000' }, singles: { type: 'string', default: '50' } },
});
const items = Number(args.items);
const singles = Number(args.singles);
const concurrency = Number(process.env.INGEST_CONCURRENCY || 8);
const stack = await startMeasuredStack('bench', { INGEST_CONCURRENCY: String(concurrency) });
const { profile, redis, temporal, prefix } = stack;
const processes = profile === 'production' ? 2 : 1;

try {
  log(`profile ${profile}: ${processes} API and ${processes} worker process(es), ${concurrency} items at once per worker`);

  // The limit: the same number of workflows, one no-op activity each, on the same server.
  const { perSecond: limitRate } = await measureNoopLimit(stack, { workflows: items, processes });

  // Ingestion through the real API and workers: the hashed embedder first, then the default model.
  const batch = Array.from({ length: items }, (_, i) => benchItem(i, 'bulk'));
  const hashedApps = await stack.startApps(processes, { EMBEDDINGS_PROVIDER: 'hashed' });
  const hashedStart = performance.now();
  const hashed = await ingestAll(stack, await createMeasuredTenant(stack, ['iq:import']), batch);
  const hashedSeconds = (performance.now() - hashedStart) / 1000;
  await Promise.all(hashedApps.all.map((process) => process.stop()));

  await stack.startApps(processes);
  const tenant = await createMeasuredTenant(stack, ['iq:import']);
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
  const modelMs = await modelMsPerChunk(batch);

  const ingestRate = items / ingestSeconds;
  const hashedRate = items / hashedSeconds;
  const report = {
    profile,
    items,
    'chunks (default model)': modelMs.chunks,
    'limit: no-op workflows/s': round(limitRate),
    'hashed embedder: items/s': round(hashedRate),
    'hashed embedder: ratio to the limit': round(hashedRate / limitRate, 2),
    'default model: items/s': round(ingestRate),
    'default model: ratio to the limit': round(ingestRate / limitRate, 2),
    'default model: seconds to accept (POST)': round(acceptedSeconds),
    'default model: seconds to all searchable': round(ingestSeconds),
    'failed items': failed + hashed.failed,
    'model ms per chunk, batch 1': modelMs[1],
    'model ms per chunk, batch 8': modelMs[8],
    'model ms per chunk, batch 32': modelMs[32],
    'history events per item': round(events.reduce((a, b) => a + b, 0) / events.length),
    'single item p50 ms': Math.round(percentile(latencies, 0.5)),
    'single item p95 ms': Math.round(percentile(latencies, 0.95)),
    'published estimate holds (>= 10 items/s)': ingestRate >= 10 ? 'yes' : 'NO',
    'default model ratio >= 0.55': ingestRate / limitRate >= 0.55 ? 'yes' : 'NO',
  };
  console.log('\nbench:ingest');
  console.table(report);
} finally {
  await stack.stop();
}

/**
 * The model alone, on the stack's now idle machine: the chunks of the first items, embedded in calls
 * of 1, 8 and 32, as the worker's coalescing hands them to the model at rising load.
 */
async function modelMsPerChunk(items: Array<ReturnType<typeof benchItem>>) {
  const model = await loadMiniLmEmbedder(defaultModelDir());
  const chunks = items
    .flatMap((item) => chunkText(item.data.title, normalizeText(item.data.content), { tokenWindow: model.tokenWindow }))
    .map((chunk) => chunk.embedText);
  const sample = chunks.slice(0, 256);
  await model.embed(sample.slice(0, 8));
  const msPerChunk = async (size: number) => {
    const started = performance.now();
    for (let i = 0; i < sample.length; i += size) await model.embed(sample.slice(i, i + size));
    return round((performance.now() - started) / sample.length, 2);
  };
  return { chunks: chunks.length, 1: await msPerChunk(1), 8: await msPerChunk(8), 32: await msPerChunk(32) };
}
