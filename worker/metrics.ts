import { Counter, Histogram, type Registry } from 'prom-client';
import type { ConversationMetrics } from '#activities/conversation/conversation-activities.js';
import type { DeliveryMetrics } from '#activities/conversation/deliver-messages.js';
import type { SyncRunObserver } from '#connectors/sync-state.js';
import { createJobMetrics } from '#knowledge/job-metrics.js';

/**
 * A worker process's metrics, defined on its registry, and the recorders handed to the activities'
 * dependencies. Labels are bounded sets only (outcomes, generators, channels, modes): never a
 * tenant, an id or free text. The Temporal SDK's own metrics are served apart (`temporal-runtime.ts`).
 */
export function createWorkerMetrics(registry: Registry) {
  const answers = new Histogram({
    name: 'kb_answer_duration_seconds',
    help: 'Time to answer a message (retrieval and writing), by outcome (answered, or unknown: "I don\'t know") and generator',
    labelNames: ['outcome', 'generator'] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30, 60, 120],
    registers: [registry],
  });
  const fallbacks = new Counter({
    name: 'kb_answer_fallbacks_total',
    help: 'Answers the configured generator failed to write, written by the extractive one instead, by failed generator',
    labelNames: ['generator'] as const,
    registers: [registry],
  });
  const handoffs = new Counter({
    name: 'kb_handoffs_total',
    help: 'Conversations handed to a person (now waiting for an agent), by channel',
    labelNames: ['channel'] as const,
    registers: [registry],
  });
  const deliveries = new Counter({
    name: 'kb_messaging_deliveries_total',
    help: 'Messages sent to messaging customers, by outcome: sent, failed for good (window_closed, token_invalid, ...), or retried',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const connectorRuns = new Counter({
    name: 'kb_connector_runs_total',
    help: 'Connector sync runs ended, by mode (full, incremental) and outcome (succeeded, failed)',
    labelNames: ['mode', 'outcome'] as const,
    registers: [registry],
  });

  const conversations: ConversationMetrics = {
    answered: ({ outcome, generator }, seconds) => answers.observe({ outcome, generator }, seconds),
    handedOff: (channel) => handoffs.inc({ channel }),
  };
  const delivery: DeliveryMetrics = { delivered: (outcome) => deliveries.inc({ outcome }) };
  const connectors: SyncRunObserver = { ended: ({ mode, outcome }) => connectorRuns.inc({ mode, outcome }) };
  return {
    jobs: createJobMetrics(registry),
    conversations,
    delivery,
    connectors,
    answerFallback: (generator: string) => fallbacks.inc({ generator }),
  };
}
