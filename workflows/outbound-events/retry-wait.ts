import type { DeliverySettings } from './types.js';

/**
 * The wait after `attempt` failed: 1 s doubling, capped, plus up to 20 % of jitter. Math.random is
 * the workflow's seeded, replayed one inside the sandbox.
 */
export function retryWait(attempt: number, { initialIntervalMs, maxIntervalMs }: DeliverySettings): number {
  const base = Math.min(maxIntervalMs, initialIntervalMs * 2 ** Math.min(attempt - 1, 30));
  return Math.round(base * (1 + Math.random() * 0.2));
}
