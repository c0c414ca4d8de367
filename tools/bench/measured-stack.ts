/**
 * A stack of its own for a benchmark or the evaluation: fresh Redis/Weaviate/Temporal data on the
 * `bench` ports, our API and worker as child processes, a Redis prefix and task queue of the run's
 * own, and the helpers every measurement needs (a tenant, an operator, content ingested).
 */
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import pLimit from 'p-limit';
import { createClient } from 'redis';
import { createAdminClient, createApiClient, type AdminClient, type ApiClient } from '#cli/admin-client.js';
import { readOrCreateLocalSecrets } from '#platform/local-secrets.js';
import { poll } from '#platform/poll.js';
import { jobIdOf } from '#workflows/ids.js';
import { startAppProcesses, type AppProcesses } from '#deploy/local/app-processes.js';
import { httpOk, stopLeftovers, waitUntil } from '#deploy/local/processes.js';
import { stackPlan, startStack, type Profile, type RunningStack, type StackPlan } from '#deploy/local/stack.js';

export interface MeasuredStack {
  profile: Profile;
  plan: StackPlan;
  /** Redis, Weaviate and Temporal, which the fault campaign kills and revives. */
  services: RunningStack;
  /** The environment of our processes on this stack. */
  env: NodeJS.ProcessEnv;
  prefix: string;
  apiUrl: string;
  redis: ReturnType<typeof createClient>;
  temporal: Client;
  admin: AdminClient;
  /** Stops these processes with the stack. */
  track(...processes: Array<{ stop(): Promise<void> }>): void;
  /** Starts `processes` API and worker processes (with `env` over the stack's) and waits until they serve. */
  startApps(processes?: number, env?: Record<string, string>): Promise<AppProcesses>;
  stop(): Promise<void>;
}

/** Shifted by `STACK_PORT_OFFSET` as the services are, so two measured stacks can run at once. */
const apiPort = 27300 + Number(process.env.STACK_PORT_OFFSET || 0);

/**
 * `redisPort` gives the stack a Redis of its own (started here, with its own data), as the fault
 * campaign needs one it may restart; by default the machine's Redis, under a prefix of the run's own.
 */
export async function startMeasuredStack(
  name: string,
  env: Record<string, string> = {},
  { redisPort }: { redisPort?: number } = {},
): Promise<MeasuredStack> {
  const profile = (process.env.STACK_PROFILE ?? 'dev') as Profile;
  const plan = { ...stackPlan('bench', join('.data', `${name}-${profile}`), profile), ...(redisPort ? { redisPort } : {}) };
  stopLeftovers(plan.paths.run);
  for (const dir of ['weaviate', 'temporal', 'logs', 'redis'])
    rmSync(join(plan.paths.data, dir), { recursive: true, force: true });
  const secrets = readOrCreateLocalSecrets(plan.paths.data);
  const stack = await startStack(plan);

  const run = randomUUID().slice(0, 8);
  const prefix = `${name}-${run}`;
  const apiUrl = `http://127.0.0.1:${apiPort}`;
  const processEnv = {
    ...process.env,
    ...stack.env,
    NODE_ENV: 'development',
    // The benchmarks' sources (the fake shop) listen on 127.0.0.1.
    OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true',
    LOG_LEVEL: 'warn',
    PORT: String(apiPort),
    ADMIN_TOKEN: secrets.adminToken,
    SECRETS_KEY: secrets.secretsKey,
    REDIS_PREFIX: prefix,
    TEMPORAL_TASK_QUEUE: prefix,
    RATE_LIMIT_PER_MINUTE: '1000000',
    CHAT_VISITOR_PER_MINUTE: '1000000',
    CHAT_OPERATOR_PER_MINUTE: '1000000',
    CHAT_CONFIG_PER_MINUTE: '1000000',
    CHAT_CONVERSATIONS_PER_HOUR: '1000000',
    CHAT_ADDRESS_PER_MINUTE: '1000000',
    CHAT_ANSWERS_PER_ADDRESS_PER_DAY: '1000000',
    CHAT_ANSWERS_PER_CONVERSATION_PER_DAY: '1000000',
    OPERATOR_ANSWERS_PER_DAY: '1000000',
    USER_PER_MINUTE: '1000000',
    ADMIN_PER_MINUTE: '1000000',
    HELP_CENTRE_PAGES_PER_MINUTE: '1000000',
    // Measured stacks run beside `npm start` and each other: their processes would contend for its metrics ports.
    METRICS_ENABLED: 'false',
    ...env,
  };
  const redis = createClient({ url: stack.env.REDIS_URL });
  // The client reconnects by itself; without a listener, a Redis that goes away (the fault campaign
  // kills it) would end the whole measuring process.
  redis.on('error', () => undefined);
  await redis.connect();
  const connection = await Connection.connect({ address: stack.env.TEMPORAL_ADDRESS! });
  const started: Array<{ stop(): Promise<void> }> = [];

  return {
    profile,
    plan,
    services: stack,
    env: processEnv,
    prefix,
    apiUrl,
    redis,
    temporal: new Client({ connection }),
    admin: createAdminClient({ baseUrl: apiUrl, adminToken: secrets.adminToken }),
    track: (...processes) => void started.push(...processes),
    async startApps(processes = 1, env = {}) {
      const apps = startAppProcesses({
        env: { ...processEnv, ...env },
        paths: plan.paths,
        apiProcesses: processes,
        workerProcesses: processes,
        cdn: false,
      });
      started.push(...apps.all);
      await waitUntil('the API', () => httpOk(`${apiUrl}/ready`), { timeoutMs: 90_000, process: apps.api });
      // Workers bundle their workflows at start: let them be polling before anything is measured.
      await new Promise((resolve) => setTimeout(resolve, 5_000));
      return apps;
    },
    async stop() {
      await Promise.all(started.map((p) => p.stop()));
      const keys: string[] = [];
      for await (const key of redis.scanIterator({ MATCH: `${prefix}:*`, COUNT: 1000 })) keys.push(key);
      for (let i = 0; i < keys.length; i += 1000) await redis.del(keys.slice(i, i + 1000));
      await redis.quit();
      await connection.close();
      await stack.stop();
    },
  };
}

/** A tenant with an API key of `scopes` and an operator on its default knowledge base. */
export async function createMeasuredTenant(stack: MeasuredStack, scopes: string[]) {
  const tenant = await stack.admin.request<{ id: string; defaultKnowledgeBaseId: string }>('POST', '/admin/tenants', {
    name: 'Bench',
  });
  const key = await stack.admin.request<{ key: string }>('POST', `/admin/tenants/${tenant.id}/api-keys`, {
    name: 'bench',
    scopes,
  });
  const operator = await stack.admin.request<{ operatorKey: string }>('POST', `/admin/tenants/${tenant.id}/operators`, {
    name: 'Northwind Outfitters',
  });
  return {
    tenantId: tenant.id,
    knowledgeBaseId: tenant.defaultKnowledgeBaseId,
    headers: { 'content-type': 'application/json', 'x-api-key': key.key },
    operatorKey: operator.operatorKey,
  };
}

/** A client of the API as an admin user of the tenant (connectors are set up with a user token). */
export async function measuredTenantAdmin(stack: MeasuredStack, tenantId: string): Promise<ApiClient> {
  const admin = await stack.admin.request<{ token: string }>('POST', `/admin/tenants/${tenantId}/users`, {
    name: 'Bench admin',
    email: 'bench@bench.test',
    role: 'admin',
  });
  return createApiClient({ baseUrl: stack.apiUrl, headers: { authorization: `Bearer ${admin.token}` } });
}

/**
 * The connector as `GET /connectors/{id}` shows it once a run other than `previousRunId` has finished;
 * `onPoll` sees it at each poll (a crawl's progress, say).
 */
export async function untilConnectorSynced(
  asAdmin: ApiClient,
  connectorId: string,
  { previousRunId, onPoll, timeoutMs }: { previousRunId?: string; onPoll?: (connector: any) => void; timeoutMs?: number } = {},
): Promise<any> {
  let connector: any;
  await waitFor(
    async () => {
      connector = await asAdmin.request('GET', `/connectors/${connectorId}`);
      onPoll?.(connector);
      return Boolean(connector.sync.last && connector.sync.last.runId !== previousRunId && !connector.sync.running);
    },
    500,
    timeoutMs,
  );
  return connector;
}

/**
 * Ingests `items` through POST /ingest/bulk (`perCall` per call, `inFlight` calls at once) and waits
 * until every job is searchable, polling Redis once a second so the measuring does not load the machine.
 */
export async function ingestAll(
  stack: MeasuredStack,
  tenant: { tenantId: string; headers: Record<string, string> },
  items: Array<{ integrationId: string; externalId: string }>,
  inFlight = 4,
  perCall = 100,
): Promise<{ acceptedSeconds: number; failed: number }> {
  const started = performance.now();
  const post = pLimit(inFlight);
  await Promise.all(
    Array.from({ length: Math.ceil(items.length / perCall) }, (_, b) =>
      post(async () => {
        const response = await fetch(`${stack.apiUrl}/ingest/bulk`, {
          method: 'POST',
          headers: tenant.headers,
          body: JSON.stringify({ items: items.slice(b * perCall, b * perCall + perCall) }),
        });
        if (!response.ok) throw new Error(`bulk answered ${response.status}: ${await response.text()}`);
      }),
    ),
  );
  const acceptedSeconds = (performance.now() - started) / 1000;
  return { acceptedSeconds, failed: await waitUntilIngested(stack, tenant.tenantId, items) };
}

/**
 * Waits until the jobs of `items` (however they were accepted: the API, the articles feed) are
 * searchable or failed, polling Redis once a second; answers how many failed.
 */
export async function waitUntilIngested(
  stack: MeasuredStack,
  tenantId: string,
  items: Array<{ integrationId: string; externalId: string }>,
): Promise<number> {
  const jobKeys = items.map((item) => `${stack.prefix}:job:${tenantId}:${jobIdOf(item)}`);
  let pending = jobKeys;
  await waitFor(async () => {
    const statuses = await jobStatuses(stack, pending);
    pending = pending.filter((_, i) => statuses[i] !== 'searchable' && statuses[i] !== 'failed');
    return pending.length === 0;
  }, 1_000);
  return (await jobStatuses(stack, jobKeys)).filter((status) => status === 'failed').length;
}

export async function jobStatuses(stack: MeasuredStack, jobKeys: string[]): Promise<Array<string | null>> {
  const statuses: Array<string | null> = [];
  for (let i = 0; i < jobKeys.length; i += 1000) {
    const multi = stack.redis.multi();
    for (const key of jobKeys.slice(i, i + 1000)) multi.hGet(key, 'status');
    statuses.push(...((await multi.exec()) as unknown as Array<string | null>));
  }
  return statuses;
}

/** Polls `done` until it says true; a measurement that never gets there fails after `timeoutMs` instead of hanging the run. */
export async function waitFor(done: () => boolean | Promise<boolean>, intervalMs = 100, timeoutMs = 30 * 60_000): Promise<void> {
  if (!(await poll(done, Boolean, { timeoutMs, intervalMs }))) {
    throw new Error('the measurement did not finish in time');
  }
}

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;
}

export function round(value: number, digits = 1): number {
  return Math.round(value * 10 ** digits) / 10 ** digits;
}
