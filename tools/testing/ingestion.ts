import { randomUUID } from 'node:crypto';
import type { TestFn } from 'ava';
import { createTemporalClient } from '#platform/temporal.js';
import type { Telemetry } from '#platform/telemetry.js';
import { createTenantWithKey, startTestApi, type TestApi } from './api.js';
import { eventually } from './eventually.js';
import { tearDown, type ClosingSteps } from './teardown.js';
import { startTestWorker, type TestWorker } from './worker.js';

export interface IngestionStack {
  api: TestApi;
  /** The worker; `stopWorker` and `startWorker` let a test take it away and bring it back. */
  startWorker(): Promise<void>;
  stopWorker(): Promise<void>;
  /** The running worker's metrics registry. */
  workerMetrics(): TestWorker['metrics'] | undefined;
  /** Stopping the worker, then closing the API: a bed that closes more lists these among its own steps. */
  closingSteps: ClosingSteps;
  close(): Promise<void>;
}

/** The real API and a real worker sharing a Redis prefix and task queues of their own. */
export async function startIngestionStack(
  overrides: Record<string, string> = {},
  options: {
    worker?: boolean;
    telemetry?: { api?: Partial<Telemetry>; worker?: Partial<Telemetry> };
  } = {},
): Promise<IngestionStack> {
  const api = await startTestApi(
    { TEMPORAL_TASK_QUEUE: `test-${randomUUID()}`, ...overrides },
    undefined,
    options.telemetry?.api,
  );
  let worker: TestWorker | undefined;
  const stack: IngestionStack = {
    api,
    async startWorker() {
      // The worker's connectors ingest through this API, on the port it was given.
      worker ??= await startTestWorker({ ...api.config, connectorsApiUrl: api.url }, options.telemetry?.worker);
    },
    async stopWorker() {
      await worker?.stop();
      worker = undefined;
    },
    workerMetrics: () => worker?.metrics,
    closingSteps: { worker: () => stack.stopWorker(), api: () => api.close() },
    close: () => tearDown(stack.closingSteps),
  };
  if (options.worker !== false) await stack.startWorker();
  return stack;
}

/**
 * A file's stack and a Temporal client on it, opened before the file's tests and closed after them; read
 * `bed.stack` and `bed.temporal` inside tests. `overrides` gives the stack's settings as it starts (ava
 * runs a file's `before` hooks at once, so a fake whose address they name is started in it).
 */
export function useStackWithTemporal(
  test: TestFn,
  overrides: () => Record<string, string> | Promise<Record<string, string>> = () => ({}),
) {
  const bed = {} as { stack: IngestionStack; temporal: ReturnType<typeof createTemporalClient> };
  test.before(async () => {
    bed.stack = await startIngestionStack(await overrides());
    bed.temporal = createTemporalClient(bed.stack.api.config.temporal);
  });
  test.after.always(async () => {
    await bed.temporal?.close();
    await bed.stack?.close();
  });
  return bed;
}

const finalStatuses = new Set(['searchable', 'skipped', 'metadata_updated', 'failed', 'deleted']);

type FinishedJob = {
  status: string;
  error?: { code: string; message: string };
  knowledgeBaseId: string;
  updatedAt: string;
};

/**
 * The jobs among `jobIds` that have left `queued`/`processing` now, by id; adds them to `known` (whose
 * jobs it does not read again) and returns it.
 */
export async function finishedJobs(
  api: TestApi,
  headers: Record<string, string>,
  jobIds: string[],
  known = new Map<string, FinishedJob>(),
): Promise<Map<string, FinishedJob>> {
  for (const jobId of jobIds) {
    if (known.has(jobId)) continue;
    const response = await api.request('GET', `/ingest/jobs/${encodeURIComponent(jobId)}`, { headers });
    if (response.status === 200 && finalStatuses.has(response.body.status)) known.set(jobId, response.body);
  }
  return known;
}

/** Polls the jobs until each has left `queued`/`processing` and returns them by id; throws if `timeoutMs` passes first. */
export async function waitForJobs(
  api: TestApi,
  headers: Record<string, string>,
  jobIds: string[],
  timeoutMs = 60_000,
): Promise<Map<string, FinishedJob>> {
  const known = new Map<string, FinishedJob>();
  return eventually(
    () => finishedJobs(api, headers, jobIds, known),
    (finished) => finished.size >= new Set(jobIds).size,
    { timeoutMs, intervalMs: 150 },
  );
}

/**
 * Waits until every job is `searchable`; throws naming those that are not (failed, or still not final
 * after `timeoutMs`), so a wait that ran out is never read as a partial success.
 */
export async function untilSearchable(api: TestApi, headers: Record<string, string>, jobIds: string[], timeoutMs = 60_000) {
  const jobs = await waitForJobs(api, headers, jobIds, timeoutMs);
  const wrong = [...new Set(jobIds)].filter((jobId) => jobs.get(jobId)?.status !== 'searchable');
  if (wrong.length > 0) {
    const which = wrong.slice(0, 5).map((jobId) => `${jobId} (${jobs.get(jobId)?.status ?? 'not final'})`);
    throw new Error(`${wrong.length} of ${jobIds.length} jobs not searchable within ${timeoutMs / 1000} s: ${which.join(', ')}`);
  }
  return jobs;
}

/** POSTs one item to /ingest; anything but 200 throws, with the API's answer. */
export async function ingest(api: TestApi, headers: Record<string, string>, body: unknown) {
  const response = await api.request('POST', '/ingest', { body, headers });
  if (response.status !== 200) throw new Error(`POST /ingest answered ${response.status}: ${JSON.stringify(response.body)}`);
  return response.body as { status: string; jobId: string };
}

/** Ingests one item and waits until its job is final; returns the job. */
export async function ingestAndWait(api: TestApi, headers: Record<string, string>, body: unknown) {
  const { jobId } = await ingest(api, headers, body);
  return (await waitForJobs(api, headers, [jobId])).get(jobId)!;
}

/** Searches a knowledge base as its API does (at most `limit` sources, best first); anything but 200 throws. */
export async function search(api: TestApi, headers: Record<string, string>, kb: string, q: string, limit = 10) {
  const response = await api.request('GET', `/knowledge-bases/${kb}/search?q=${encodeURIComponent(q)}&limit=${limit}`, {
    headers,
  });
  if (response.status !== 200) throw new Error(`search answered ${response.status}: ${JSON.stringify(response.body)}`);
  return response.body.results as Array<Record<string, any>>;
}

/** A tenant that may import and read, with its default knowledge base. */
export async function importingTenant(api: TestApi) {
  const { tenant, headers } = await createTenantWithKey(api, ['iq:import', 'iq:read']);
  return { tenant, headers, kb: tenant.defaultKnowledgeBaseId as string };
}

export function item(externalId: string, data: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return { integrationId: 'shop', sourceType: 'PRODUCT', externalId, data, ...extra };
}
