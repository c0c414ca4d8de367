import type { Registry } from 'prom-client';
import { counterOn, histogramOn } from '#platform/metrics/registry.js';
import type { ConversationMetrics } from '#activities/conversations/conversation-activities.js';
import type { DeliveryMetrics } from '#messaging/delivery.js';
import type { SyncRunObserver } from '#connectors/sync-state.js';
import type { CrawlObserver } from '#connectors/website/crawl-step.js';
import type { FileChange } from '#connectors/files/apply-file.js';
import { createJobMetrics } from '#knowledge/job-metrics.js';
import type { LaneObserver } from '#knowledge/embeddings/minilm/model-lanes.js';

/**
 * A worker process's metrics, defined on its registry, and the recorders handed to the activities'
 * dependencies. Labels are bounded sets only (outcomes, generators, channels, modes): never a
 * tenant, an id or free text. The Temporal SDK's own metrics are served apart (`temporal-runtime.ts`).
 */
export function createWorkerMetrics(registry: Registry) {
  const answers = histogramOn(
    registry,
    'kb_answer_duration_seconds',
    'Time to answer a message (retrieval and writing), by outcome (answered, or unknown: "I don\'t know") and generator',
    [0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30, 60, 120],
    ['outcome', 'generator'],
  );
  const fallbacks = counterOn(
    registry,
    'kb_answer_fallbacks_total',
    'Answers the configured generator failed to write, written by the extractive one instead, by failed generator',
    ['generator'],
  );
  const handoffs = counterOn(
    registry,
    'kb_handoffs_total',
    'Conversations handed to a person (now waiting for an agent), by channel',
    ['channel'],
  );
  const deliveries = counterOn(
    registry,
    'kb_messaging_deliveries_total',
    'Messages sent to messaging customers, by outcome: sent, failed for good (window_closed, token_invalid, ...), or retried',
    ['outcome'],
  );
  const connectorRuns = counterOn(
    registry,
    'kb_connector_runs_total',
    'Connector sync runs ended, by mode (full, incremental) and outcome (succeeded, failed)',
    ['mode', 'outcome'],
  );
  const crawledPages = counterOn(
    registry,
    'kb_crawl_pages_total',
    'Pages website crawls took from their frontiers, by outcome (fetched, unchanged, sent, duplicates, noindex, skippedByRobots, outOfScope, gone, notPages, failed)',
    ['outcome'],
  );
  const fileChanges = counterOn(
    registry,
    'kb_files_total',
    'Uploaded files the workers took in (ingested), refused (by the reader\'s code) or removed',
    ['outcome'],
  );

  const modelWaits = histogramOn(
    registry,
    'kb_model_wait_seconds',
    'Time a text or passage waited for the local model, by lane (query, interactive, bulk)',
    [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30],
    ['lane'],
  );
  const modelRuns = histogramOn(
    registry,
    'kb_model_run_seconds',
    'Time the local model ran one call (one text or passage), by lane',
    [0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1],
    ['lane'],
  );
  const dependencyCalls = histogramOn(
    registry,
    'kb_dependency_call_seconds',
    "Time of the ingestion's calls to its stores, by system (redis, weaviate) and method",
    [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    ['system', 'method'],
  );

  const model: LaneObserver = {
    called(lane, { waitedSeconds, ranSeconds }) {
      for (const seconds of waitedSeconds) modelWaits.observe({ lane }, seconds);
      modelRuns.observe({ lane }, ranSeconds);
    },
  };
  const conversations: ConversationMetrics = {
    answered: ({ outcome, generator }, seconds) => answers.observe({ outcome, generator }, seconds),
    handedOff: (channel) => handoffs.inc({ channel }),
  };
  const delivery: DeliveryMetrics = { delivered: (outcome) => deliveries.inc({ outcome }) };
  const connectors: SyncRunObserver = { ended: ({ mode, outcome }) => connectorRuns.inc({ mode, outcome }) };
  const crawls: CrawlObserver = {
    committed(counts) {
      for (const [outcome, pages] of Object.entries(counts)) if (pages) crawledPages.inc({ outcome }, pages);
    },
  };
  const files = {
    changed(change: FileChange) {
      if (change.did === 'nothing') return;
      fileChanges.inc({ outcome: change.did === 'refused' ? (change.file.error?.code ?? 'refused') : change.did });
    },
  };
  return {
    jobs: createJobMetrics(registry),
    model,
    files,
    /** A recorder of one system's calls, for `timeCalls`. */
    dependency: (system: string) => (method: string, seconds: number) => dependencyCalls.observe({ system, method }, seconds),
    conversations,
    delivery,
    connectors,
    crawls,
    answerFallback: (generator: string) => fallbacks.inc({ generator }),
  };
}
