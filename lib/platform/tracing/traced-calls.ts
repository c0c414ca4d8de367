import { SpanKind, SpanStatusCode, type Attributes, type Tracer } from '@opentelemetry/api';
import { wrapMethods } from '../wrapped-methods.js';

/**
 * Runs `call` in a client span named `name` (a child of whatever span is active), ending it when the
 * call settles; a failure is recorded on the span and thrown on. The attributes name the system
 * and operation only: never keys, queries or values, which can carry tenants' data.
 */
export async function inClientSpan<T>(tracer: Tracer, name: string, attributes: Attributes, call: () => Promise<T>): Promise<T> {
  return tracer.startActiveSpan(name, { kind: SpanKind.CLIENT, attributes }, async (span) => {
    try {
      return await call();
    } catch (error) {
      span.recordException(error as Error);
      span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message });
      throw error;
    } finally {
      span.end();
    }
  });
}

/**
 * An object whose every method runs in a span `<system>.<method>`: the boundary of our code with a
 * client that has no instrumentation of its own (the Weaviate chunk index). Other properties are
 * passed through.
 */
export function traceCalls<T extends object>(target: T, tracer: Tracer, system: string): T {
  return wrapMethods(
    target,
    (name, method) =>
      (...args) =>
        inClientSpan(tracer, `${system}.${name}`, { 'db.system': system, 'db.operation.name': name }, async () =>
          method(...args),
        ),
  );
}
