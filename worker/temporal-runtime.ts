import { Runtime, type RuntimeOptions } from '@temporalio/worker';
import type { TelemetryConfig } from '#platform/config.js';
import type { Logger } from '#platform/logger.js';

/**
 * The Temporal SDK's own metrics of a worker (its slots, polls, task latencies, in Core, the
 * SDK's native side), served by the SDK's Prometheus exporter on a port of their own: names start
 * `temporal_`, counters end `_total`, durations are in seconds with the unit in the name.
 */
export function temporalMetricsOptions(metrics: TelemetryConfig['metrics']): Pick<RuntimeOptions, 'telemetryOptions'> {
  if (!metrics.enabled) return {};
  return {
    telemetryOptions: {
      metrics: {
        prometheus: {
          bindAddress: `${metrics.host}:${metrics.temporalPort}`,
          countersTotalSuffix: true,
          unitSuffix: true,
          useSecondsForDurations: true,
        },
      },
    },
  };
}

/**
 * Installs the SDK's runtime (once per process) with its metrics served; should their port be taken,
 * the error is logged and the worker runs without them, as it does without its own endpoint.
 */
export function installRuntime(options: RuntimeOptions, metrics: TelemetryConfig['metrics'], logger: Logger): void {
  try {
    Runtime.install({ ...options, ...temporalMetricsOptions(metrics) });
    if (metrics.enabled)
      logger.info({ url: `http://${metrics.host}:${metrics.temporalPort}/metrics` }, 'temporal metrics listening');
  } catch (error) {
    if (!metrics.enabled) throw error;
    logger.error({ err: { message: (error as Error).message }, port: metrics.temporalPort }, 'temporal metrics not started');
    Runtime.install(options);
  }
}
