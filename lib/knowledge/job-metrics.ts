import type { Registry } from 'prom-client';
import { counterOn, histogramOn } from '#platform/metrics/registry.js';
import type { JobObserver } from './jobs.js';

/**
 * The ingestion jobs' metrics, counted where their statuses change (`createJobStore`'s observer):
 * `queued` in the API, which accepts versions, every later status in the workers.
 */
export function createJobMetrics(registry: Registry): JobObserver {
  const transitions = counterOn(
    registry,
    'kb_ingest_job_transitions_total',
    'Changes of ingestion jobs to each status (queued when a version is accepted)',
    ['status'],
  );
  const freshness = histogramOn(
    registry,
    'kb_ingest_accepted_to_searchable_seconds',
    'Time from a version accepted by the API to its job searchable (indexed, found by search)',
    [0.25, 0.5, 1, 2, 5, 10, 30, 60, 120, 300, 600, 1800, 3600],
  );
  return {
    changed(status, sinceAcceptedMs) {
      transitions.inc({ status });
      if (status === 'searchable' && sinceAcceptedMs !== undefined) freshness.observe(Math.max(0, sinceAcceptedMs) / 1000);
    },
  };
}
