import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';

export type { Registry as MetricsRegistry };

/** Every metric this service exports starts with it. */
export const metricPrefix = 'kb_';

/**
 * A process's own registry of metrics (never prom-client's global one): the wiring defines the
 * service's metrics on it and hands their recorders to the code that counts. The Node.js process
 * metrics (CPU, memory, event-loop lag, garbage collection) come with it, under the same prefix.
 */
export function createMetricsRegistry(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: metricPrefix });
  return registry;
}

const seriesSuffixes: Record<string, string[]> = {
  counter: [''],
  gauge: [''],
  histogram: ['_bucket', '_sum', '_count'],
  summary: ['', '_sum', '_count'],
};

/** The names of the series a registry exports, as a PromQL query names them (a histogram's `_bucket`, `_sum`, `_count`). */
export async function exportedSeriesNames(registry: Registry): Promise<Set<string>> {
  const names = new Set<string>();
  for (const metric of await registry.getMetricsAsJSON()) {
    for (const suffix of seriesSuffixes[metric.type] ?? ['']) names.add(`${metric.name}${suffix}`);
  }
  return names;
}

/** A counter on `registry` (prom-client's options, with the registry given once). */
export function counterOn<L extends string = never>(
  registry: Registry,
  name: string,
  help: string,
  labelNames: readonly L[] = [],
) {
  return new Counter<L>({ name, help, labelNames, registers: [registry] });
}

/** A histogram on `registry`, with buckets chosen for what it measures. */
export function histogramOn<L extends string = never>(
  registry: Registry,
  name: string,
  help: string,
  buckets: number[],
  labelNames: readonly L[] = [],
) {
  return new Histogram<L>({ name, help, buckets, labelNames, registers: [registry] });
}
