import { Counter, Histogram, type Registry } from 'prom-client';
import type { JobObserver } from './jobs.js';

/**
 * The ingestion jobs' metrics, counted where their statuses change (`createJobStore`'s observer):
 * `queued` in the API, which accepts versions, every later status in the workers.
 */
export function createJobMetrics(registry: Registry): JobObserver {
  const transitions = new Counter({
    name: 'kb_ingest_job_transitions_total',
    help: 'Changes of ingestion jobs to each status (queued when a version is accepted)',
    labelNames: ['status'] as const,
    registers: [registry],
  });
  const freshness = new Histogram({
    name: 'kb_ingest_accepted_to_searchable_seconds',
    help: 'Time from a version accepted by the API to its job searchable (indexed, found by search)',
    buckets: [0.25, 0.5, 1, 2, 5, 10, 30, 60, 120, 300, 600, 1800, 3600],
    registers: [registry],
  });
  return {
    changed(status, sinceAcceptedMs) {
      transitions.inc({ status });
      if (status === 'searchable' && sinceAcceptedMs !== undefined) freshness.observe(Math.max(0, sinceAcceptedMs) / 1000);
    },
  };
}
