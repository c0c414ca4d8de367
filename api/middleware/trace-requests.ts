import { context, propagation, SpanKind, SpanStatusCode, trace, type Tracer } from '@opentelemetry/api';
import type { Middleware } from 'koa';
import { routeTemplateOf } from '../route-template.js';
import type { ApiState } from '../state.js';

/**
 * Each request in a server span, `<METHOD> <route template>`, continuing the caller's trace when it
 * sends a W3C `traceparent`. The request id is an attribute of the span and the trace id goes into
 * the request's log lines, so a log line, a trace and the `x-request-id` of an answer lead to each
 * other. Comes after the request context (which gives the id), before the error handler.
 */
export function traceRequests(tracer: Tracer): Middleware<ApiState> {
  return async function traceRequests(ctx, next) {
    const parent = propagation.extract(context.active(), ctx.headers);
    const span = tracer.startSpan(
      ctx.method,
      { kind: SpanKind.SERVER, attributes: { 'http.request.method': ctx.method, 'kb.request_id': ctx.state.requestId } },
      parent,
    );
    ctx.state.log = ctx.state.log.child({ traceId: span.spanContext().traceId });
    try {
      await context.with(trace.setSpan(parent, span), next);
    } finally {
      const route = routeTemplateOf(ctx);
      span.updateName(`${ctx.method} ${route}`);
      span.setAttributes({ 'http.route': route, 'http.response.status_code': ctx.status });
      if (ctx.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    }
  };
}
