import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ensureEmbeddingModel } from './embedding-model.js';
import { log } from './output.js';
import { stopLeftovers } from './processes.js';
import { startRedis } from './services/redis.js';
import type { RunningService, StackPaths } from './services/service.js';
import { startTemporalDev, type TemporalDevPorts } from './services/temporal-dev.js';
import { startTemporalServer } from './services/temporal-server.js';
import { startWeaviate, type WeaviatePorts } from './services/weaviate.js';

export type Profile = 'dev' | 'production';

/** Which ports and folders one stack uses; `npm start` and `npm test` use different plans, so both can run at once. */
export interface StackPlan {
  profile: Profile;
  paths: StackPaths;
  namespace: string;
  redisPort: number;
  weaviate: WeaviatePorts;
  temporal: TemporalDevPorts;
}

export function stackPaths(dataDir: string): StackPaths {
  const data = resolve(dataDir);
  return { data, logs: join(data, 'logs'), run: join(data, 'run') };
}

/**
 * Each kind of stack has ports of its own, so `npm start`, `npm test` and the benchmarks can run at
 * once: `start` uses the contract's defaults and the Temporal UI; the others run Temporal headless.
 */
const portsOf = {
  start: { weaviate: { http: 8080, grpc: 50051, gossip: 7946, raft: 8300 }, temporal: { frontend: 7233, http: 7243, ui: 8233 } },
  test: { weaviate: { http: 18080, grpc: 15051, gossip: 17946, raft: 18300 }, temporal: { frontend: 17233, http: 17243 } },
  bench: { weaviate: { http: 28080, grpc: 25051, gossip: 27946, raft: 28300 }, temporal: { frontend: 27233, http: 27243 } },
} satisfies Record<string, Pick<StackPlan, 'weaviate' | 'temporal'>>;

/**
 * `STACK_PORT_OFFSET` shifts every port of the plan, so two checkouts (git worktrees) can each run
 * `npm test` at once; Redis is shared, and tests keep to key prefixes of their own.
 */
export function stackPlan(kind: keyof typeof portsOf, dataDir: string, profile: Profile = 'dev'): StackPlan {
  const offset = Number(process.env.STACK_PORT_OFFSET || 0);
  const shift = <T extends object>(ports: T): T =>
    Object.fromEntries(Object.entries(ports).map(([name, port]) => [name, port + offset])) as T;
  const { weaviate, temporal } = portsOf[kind];
  return {
    profile,
    paths: stackPaths(dataDir),
    namespace: 'default',
    redisPort: 6379,
    weaviate: shift(weaviate),
    temporal: shift(temporal),
  };
}

export interface RunningStack {
  services: RunningService[];
  /** The variables that point the API and the worker at these services. */
  env: Record<string, string>;
  stop(): Promise<void>;
  /** Kills one service with `signal` (SIGKILL: a crash) and waits until it is gone. */
  kill(name: ServiceName, signal: NodeJS.Signals): Promise<void>;
  /** Starts a killed service again, on its ports and over the data it left; resolves once it answers. */
  revive(name: ServiceName): Promise<void>;
}

export type ServiceName = 'redis' | 'weaviate' | 'temporal';

/**
 * How each of the plan's services is started, on its ports and over its data folder; starting one
 * again after it stopped (the fault campaign restarts them) finds the data it left.
 */
export function serviceStarters(plan: StackPlan): Record<ServiceName, () => Promise<RunningService>> {
  const startTemporal = plan.profile === 'production' ? startTemporalServer : startTemporalDev;
  return {
    redis: () => startRedis(plan.redisPort, plan.paths),
    weaviate: () => startWeaviate(plan.weaviate, plan.paths),
    temporal: () => startTemporal(plan.temporal, plan.namespace, plan.paths),
  };
}

/**
 * Starts Redis, Weaviate and Temporal (building what is missing), and stops them in reverse order.
 * The embedding model our processes load is fetched and checked meanwhile.
 */
export async function startStack(plan: StackPlan): Promise<RunningStack> {
  for (const dir of Object.values(plan.paths)) mkdirSync(dir, { recursive: true });
  stopLeftovers(plan.paths.run);

  const started: RunningService[] = [];
  const stop = async () => {
    for (const service of started.reverse()) {
      if (service.process) {
        log(`stopping ${service.name}`);
        await service.process.stop();
      }
    }
  };

  const starters = serviceStarters(plan);
  const launches = Object.values(starters).map((start) => start());
  const model = ensureEmbeddingModel();
  const results = await Promise.allSettled([
    ...launches.map((launch) => launch.then((service) => (started.push(service), service))),
    model,
  ]);
  const failure = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failure) {
    await stop();
    throw failure.reason;
  }
  for (const service of started) log(`${service.name} ready at ${service.url}${service.note ? ` (${service.note})` : ''}`);

  return {
    services: started,
    env: {
      REDIS_URL: `redis://127.0.0.1:${plan.redisPort}`,
      WEAVIATE_URL: `http://127.0.0.1:${plan.weaviate.http}`,
      WEAVIATE_GRPC_PORT: String(plan.weaviate.grpc),
      TEMPORAL_ADDRESS: `127.0.0.1:${plan.temporal.frontend}`,
      TEMPORAL_NAMESPACE: plan.namespace,
      DATA_DIR: plan.paths.data,
    },
    stop,
    async kill(name, signal) {
      const service = started.find((running) => running.name === name);
      if (!service?.process) throw new Error(`${name} was not started by this stack, so it cannot be killed`);
      service.process.kill(signal);
      await service.process.exited;
    },
    async revive(name) {
      const index = started.findIndex((running) => running.name === name);
      if (started[index]?.process?.alive) throw new Error(`${name} is still running`);
      started[index] = await starters[name]();
    },
  };
}
