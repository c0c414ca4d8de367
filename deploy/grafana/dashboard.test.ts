import { readFileSync } from 'node:fs';
import test from 'ava';
import { createApiMetrics } from '#api/metrics.js';
import { createLogger } from '#platform/logger.js';
import { createMetricsRegistry, exportedSeriesNames } from '#platform/metrics/registry.js';
import { createWorkerMetrics } from '#worker/metrics.js';

/*
 * The Grafana dashboard (deploy/grafana/kb-assistant.json) queries only series the service
 * exports: its metric names are checked against the API's and the worker's registries, defined by
 * the same functions the wiring calls.
 */

interface Panel {
  title: string;
  type: string;
  targets?: Array<{ expr: string }>;
  panels?: Panel[];
}

const dashboard = JSON.parse(readFileSync(new URL('./kb-assistant.json', import.meta.url), 'utf8')) as {
  uid: string;
  panels: Panel[];
  templating: { list: Array<{ name: string; type: string }> };
};
const panels = dashboard.panels.flatMap((panel) => [panel, ...(panel.panels ?? [])]).filter((panel) => panel.type !== 'row');

/** PromQL's functions, aggregations and keywords the dashboard uses: every other word is a metric name. */
const promqlWords = new Set([
  'sum',
  'max',
  'min',
  'avg',
  'count',
  'rate',
  'irate',
  'increase',
  'histogram_quantile',
  'and',
  'or',
  'unless',
]);

/** The metric names a PromQL expression reads (strings, label matchers, ranges and grouping labels left out). */
function metricNamesOf(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, '')
    .replace(/\[[^\]]*\]/g, '')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, '');
  return [...bare.matchAll(/[A-Za-z_:][A-Za-z0-9_:]*/g)].map(([word]) => word).filter((word) => !promqlWords.has(word));
}

async function exportedNames(): Promise<Set<string>> {
  const api = createMetricsRegistry();
  createApiMetrics(api, {
    openStreams: () => 0,
    waitingHandoffs: async () => 0,
    logger: createLogger({ level: 'silent', name: 'dashboard-test' }),
  });
  const worker = createMetricsRegistry();
  createWorkerMetrics(worker);
  return new Set([...(await exportedSeriesNames(api)), ...(await exportedSeriesNames(worker))]);
}

test('the expression reader finds metric names and nothing else', (t) => {
  t.deepEqual(
    metricNamesOf(
      'histogram_quantile(0.95, sum by (le, route) (rate(kb_http_request_duration_seconds_bucket{status=~"5.."}[$__rate_interval])))',
    ),
    ['kb_http_request_duration_seconds_bucket'],
  );
  t.deepEqual(metricNamesOf('sum(rate(a_total{x="sum"}[5m])) / sum(rate(b_count[5m]))'), ['a_total', 'b_count']);
});

test('every query of the dashboard names series the service exports', async (t) => {
  const exported = await exportedNames();
  const queried = new Set<string>();
  for (const panel of panels) {
    t.true((panel.targets ?? []).length > 0, `${panel.title} has a query`);
    for (const { expr } of panel.targets ?? []) {
      const names = metricNamesOf(expr);
      t.true(names.length > 0, `${panel.title}: ${expr} names a metric`);
      for (const name of names) {
        queried.add(name);
        t.true(exported.has(name), `${panel.title}: ${name} is not exported by the API or the worker`);
      }
    }
  }
  // What operators asked the dashboard to show.
  for (const name of [
    'kb_ingest_job_transitions_total',
    'kb_ingest_accepted_to_searchable_seconds_bucket',
    'kb_answer_duration_seconds_bucket',
    'kb_answer_duration_seconds_count',
    'kb_handoffs_waiting',
    'kb_messaging_webhooks_total',
    'kb_http_requests_total',
  ]) {
    t.true(queried.has(name), `the dashboard shows ${name}`);
  }
});

test('the dashboard asks for its Prometheus data source on import', (t) => {
  t.is(dashboard.uid, 'kb-assistant');
  t.true(dashboard.templating.list.some((variable) => variable.type === 'datasource' && variable.name === 'datasource'));
  for (const panel of panels)
    t.deepEqual((panel as { datasource?: unknown }).datasource, { type: 'prometheus', uid: '${datasource}' });
});
