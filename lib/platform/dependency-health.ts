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

/**
 * `checkDependencies` with its result kept for `ttlMs`: callers within that time, and callers
 * while a round of probes is under way, share one round. Health routes are public and polled by
 * load balancers: hammering them costs one probe of each dependency per `ttlMs`, no more.
 */
export function cachedDependencyChecks(
  checks: DependencyChecks,
  options: { ttlMs?: number; timeoutMs?: number; now?: () => number } = {},
): () => Promise<DependencyStatus[]> {
  const { ttlMs = 1_000, timeoutMs, now = () => performance.now() } = options;
  let last: { at: number; statuses: Promise<DependencyStatus[]> } | undefined;
  return () => {
    if (!last || now() - last.at >= ttlMs) {
      const round = { at: Number.POSITIVE_INFINITY, statuses: checkDependencies(checks, timeoutMs) };
      // The round's age counts from when it ended: until then, every caller waits for it.
      void round.statuses.then(() => {
        round.at = now();
      });
      last = round;
    }
    return last.statuses;
  };
}
