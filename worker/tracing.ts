import {
  makeWorkflowExporter,
  OpenTelemetryActivityInboundInterceptor,
  OpenTelemetryActivityOutboundInterceptor,
} from '@temporalio/interceptors-opentelemetry';
import type { WorkerOptions } from '@temporalio/worker';
import type { Tracing } from '#platform/tracing/tracing.js';

/**
 * What a Worker needs to trace: activities run in a span continuing the workflow's (from the
 * activity's headers), and the spans workflows make in their sandbox reach the process's span
 * processor through a sink. The workflows' own interceptors are bundled in (`bundleWorkflows`).
 */
export function workerTracingOptions(tracing: Tracing | undefined): Pick<WorkerOptions, 'interceptors' | 'sinks'> {
  if (!tracing) return {};
  const { tracer } = tracing;
  return {
    interceptors: {
      activity: [
        (ctx) => ({
          inbound: new OpenTelemetryActivityInboundInterceptor(ctx, { tracer }),
          outbound: new OpenTelemetryActivityOutboundInterceptor(ctx),
        }),
      ],
    },
    sinks: { exporter: makeWorkflowExporter(tracing.spanProcessor, tracing.resource) },
  };
}
