import type { Client } from '@temporalio/client';
import type { RedisClient } from './redis.js';
import type { WeaviateClient } from './weaviate.js';
import type { DependencyName } from './dependency-errors.js';
import { withTimeout } from './time-limit.js';

export interface DependencyStatus {
  name: DependencyName;
  up: boolean;
  latencyMs: number;
  error?: string;
}

export type DependencyCheck = () => Promise<void>;
/** The services the API cannot serve without (the embeddings provider is not probed: each probe would cost a call). */
export type DependencyChecks = Record<Exclude<DependencyName, 'embeddings'>, DependencyCheck>;

/** The cheapest call each dependency answers only when it can serve requests. */
export function dependencyChecks(deps: { redis: RedisClient; weaviate: WeaviateClient; temporal: Client }): DependencyChecks {
  return {
    redis: async () => {
      await deps.redis.ping();
    },
    weaviate: async () => {
      if (!(await deps.weaviate.isReady())) throw new Error('Weaviate is not ready');
    },
    temporal: async () => {
      const { connection } = deps.temporal;
      await connection.withDeadline(Date.now() + 2_000, () => connection.workflowService.getSystemInfo({}));
    },
  };
}

/** Runs every check at once, each bounded by `timeoutMs`. */
export function checkDependencies(checks: DependencyChecks, timeoutMs = 2_000): Promise<DependencyStatus[]> {
  return Promise.all(
    (Object.entries(checks) as [DependencyName, DependencyCheck][]).map(async ([name, check]) => {
      const started = performance.now();
      try {
        await withTimeout(check(), timeoutMs);
        return { name, up: true, latencyMs: Math.round(performance.now() - started) };
      } catch (error) {
        return { name, up: false, latencyMs: Math.round(performance.now() - started), error: (error as Error).message };
      }
    }),
  );
}
