import type { TelemetryConfig } from './config.js';
import type { Logger } from './logger.js';
import { exposeRegistry, type MetricsEndpoint } from './metrics/endpoint.js';
import { createMetricsRegistry, type MetricsRegistry } from './metrics/registry.js';
import { startTracing, type Tracing } from './tracing/tracing.js';

/** What a process's wiring records its metrics on and traces with (no tracing: undefined). */
export interface Telemetry {
  metrics: MetricsRegistry;
  tracing?: Tracing;
}

export interface ProcessTelemetry extends Telemetry {
  /** The metrics endpoint, once listening (none when off, or served by a cluster's primary). */
  endpoint?: MetricsEndpoint;
  /** Stops the endpoint and sends the spans still buffered. */
  close(): Promise<void>;
}

/**
 * For process entries: the process's metrics registry, served on `port` when metrics are on, and
 * tracing when a collector is configured. Started before the wiring, so that the clients it makes
 * are traced.
 */
export async function startProcessTelemetry(
  config: TelemetryConfig,
  process: { serviceName: string; port: number },
  logger: Logger,
): Promise<ProcessTelemetry> {
  const metrics = createMetricsRegistry();
  const tracing = startTracing({
    serviceName: process.serviceName,
    ...(config.otlpEndpoint ? { otlpEndpoint: config.otlpEndpoint } : {}),
  });
  if (tracing) logger.info({ endpoint: config.otlpEndpoint }, 'tracing to an OpenTelemetry collector');
  const endpoint = config.metrics.enabled
    ? await exposeRegistry(metrics, { host: config.metrics.host, port: process.port }, logger)
    : undefined;
  return {
    metrics,
    ...(tracing ? { tracing } : {}),
    ...(endpoint ? { endpoint } : {}),
    async close() {
      await Promise.allSettled([endpoint?.close(), tracing?.shutdown()]);
    },
  };
}
