import { Gauge, type Registry } from 'prom-client';
import { counterOn, histogramOn } from '#platform/metrics/registry.js';
import { createJobMetrics } from '#knowledge/job-metrics.js';
import type { Logger } from '#platform/logger.js';
import { BudgetRefusal, type AppError } from './errors.js';
import type { HttpMetrics } from './middleware/http-metrics.js';
import type { WebhookMetrics } from './routes/messaging-webhooks.js';

/** What the API's gauges read when they are scraped. */
export interface ApiGaugeSources {
  /** Event streams (chat and agent) open in this process. */
  openStreams(): number;
  /** Conversations waiting for an agent, across the deployment (Temporal's visibility). */
  waitingHandoffs(): Promise<number>;
  logger: Logger;
}

/**
 * The API process's metrics, defined on its registry, and the recorders handed to the code that
 * counts. Labels are bounded sets only: route templates, methods, statuses, budgets, outcomes,
 * never a tenant, an id or free text.
 */
export function createApiMetrics(registry: Registry, sources: ApiGaugeSources) {
  const requests = counterOn(
    registry,
    'kb_http_requests_total',
    'HTTP requests answered, by method, route template and status code',
    ['method', 'route', 'status'],
  );
  const durations = histogramOn(
    registry,
    'kb_http_request_duration_seconds',
    'Time to answer an HTTP request (to the start of the body for event streams), by method, route template and status class',
    [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    ['method', 'route', 'status_class'],
  );
  const refusals = counterOn(
    registry,
    'kb_rate_limit_refusals_total',
    'Requests answered 429 because a budget ran out, by budget (api-key, visitor, operator, operator-answers, event-streams, ...)',
    ['budget'],
  );
  const webhooks = counterOn(
    registry,
    'kb_messaging_webhooks_total',
    "Deliveries of the messaging platform's webhook, by how they were answered (acknowledged, bad_signature, malformed, ...)",
    ['outcome'],
  );
  const webhookEvents = counterOn(
    registry,
    'kb_messaging_webhook_events_total',
    'Events of acknowledged webhook deliveries, by what became of them (messages, duplicates, statuses, ignored)',
    ['kind'],
  );
  const uploads = counterOn(
    registry,
    'kb_file_uploads_total',
    'Files uploaded to files sources, by how they were answered (new, version, unchanged, or the code refused with: file_too_large, empty_file, ...)',
    ['outcome'],
  );
  new Gauge({
    name: 'kb_event_streams_open',
    help: 'Event streams (chat and agent) open in this process',
    registers: [registry],
    collect() {
      this.set(sources.openStreams());
    },
  });
  new Gauge({
    name: 'kb_handoffs_waiting',
    help: 'Conversations waiting for an agent now, across the deployment (the same in every API process)',
    registers: [registry],
    // Every API process reads the same number: a cluster's primary reports it once.
    aggregator: 'max',
    async collect() {
      try {
        this.set(await sources.waitingHandoffs());
      } catch (error) {
        // Temporal away: the last value stays, and the scrape still answers.
        sources.logger.warn({ err: { message: (error as Error).message } }, 'waiting handoffs not counted');
      }
    },
  });

  const http: HttpMetrics = {
    answered({ method, route, status }, seconds) {
      requests.inc({ method, route, status: String(status) });
      durations.observe({ method, route, status_class: `${Math.floor(status / 100)}xx` }, seconds);
    },
  };
  const webhookMetrics: WebhookMetrics = {
    answered: (outcome) => webhooks.inc({ outcome }),
    takenIn(counts) {
      for (const [kind, count] of Object.entries(counts)) if (count > 0) webhookEvents.inc({ kind }, count);
    },
  };
  return {
    http,
    /** For the error handler: counts each 429 of a budget. */
    observeError(error: AppError) {
      if (error instanceof BudgetRefusal) refusals.inc({ budget: error.budget });
    },
    webhooks: webhookMetrics,
    /** Each upload answered, by its outcome or refusal's code. */
    uploads: (outcome: string) => uploads.inc({ outcome }),
    jobs: createJobMetrics(registry),
  };
}

export type ApiMetrics = ReturnType<typeof createApiMetrics>;
