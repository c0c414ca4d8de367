import type { Tracer } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { Resource } from '@opentelemetry/resources';
import { BatchSpanProcessor, SimpleSpanProcessor, type SpanExporter, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';

/** A process's tracing, handed to the wiring: the tracer, and what the worker needs for its workflows' spans. */
export interface Tracing {
  tracer: Tracer;
  /** Where spans end up; the worker hands it the spans its workflows make in their sandbox. */
  spanProcessor: SpanProcessor;
  resource: Resource;
  /** Sends what is still buffered, then stops. */
  shutdown(): Promise<void>;
}

export interface TracingOptions {
  /** `service.name` of every span: kb-api, kb-worker. */
  serviceName: string;
  /** An OTLP/HTTP collector's base address (OTEL_EXPORTER_OTLP_ENDPOINT): spans go to its /v1/traces in batches. */
  otlpEndpoint?: string;
  /** Instead, an exporter of one's own, sent each span as it ends (the tests' in-memory one). */
  exporter?: SpanExporter;
}

/**
 * Starts tracing the process when there is somewhere to send the spans, and registers it as the
 * process's OpenTelemetry provider (context kept across awaits, W3C trace context propagated: what
 * the Temporal interceptors carry from the API to workflows and activities). With nowhere to send
 * them there is no tracing at all (undefined): nothing is wrapped, nothing is measured.
 */
export function startTracing({ serviceName, otlpEndpoint, exporter }: TracingOptions): Tracing | undefined {
  const spanProcessor = exporter
    ? new SimpleSpanProcessor(exporter)
    : otlpEndpoint
      ? new BatchSpanProcessor(new OTLPTraceExporter({ url: `${otlpEndpoint}/v1/traces` }))
      : undefined;
  if (!spanProcessor) return undefined;
  const resource = Resource.default().merge(new Resource({ 'service.name': serviceName })) as Resource;
  const provider = new NodeTracerProvider({ resource, spanProcessors: [spanProcessor] });
  provider.register();
  return {
    tracer: provider.getTracer('kb-assistant'),
    spanProcessor,
    resource,
    shutdown: () => provider.shutdown(),
  };
}
