import { InterceptingCall, ListenerBuilder, RequesterBuilder, type Interceptor } from '@grpc/grpc-js';
import type { Tracer } from '@opentelemetry/api';
import { Client, Connection, defaultGrpcRetryOptions, makeGrpcRetryInterceptor, type ClientOptions } from '@temporalio/client';
import { OpenTelemetryWorkflowClientInterceptor } from '@temporalio/interceptors-opentelemetry';
import { NativeConnection } from '@temporalio/worker';
import type { Logger } from './logger.js';

export interface TemporalClient {
  client: Client;
  /** Waits for calls still retrying (at most `graceMs`), then closes the connection. */
  close(graceMs?: number): Promise<void>;
}

/**
 * The API's Temporal client. The connection is lazy: the API starts while Temporal is down and
 * connects on first use; gRPC reconnects by itself afterwards. A call that finds Temporal down is
 * retried briefly (four attempts, under a second), then fails so the caller gets a 503 quickly.
 */
export function createTemporalClient(options: { address: string; namespace: string }, tracer?: Tracer): TemporalClient {
  const inFlight = callCounter();
  const connection = Connection.lazy({
    address: options.address,
    interceptors: [inFlight.interceptor, makeGrpcRetryInterceptor(defaultGrpcRetryOptions({ maxAttempts: 4 }))],
  });
  return {
    client: new Client({ connection, namespace: options.namespace, ...tracedClient(tracer) }),
    async close(graceMs = 5_000) {
      // The SDK's retry timers do not check for a closed channel: let them finish first.
      await inFlight.drained(graceMs);
      await connection.close();
    },
  };
}

/**
 * A Temporal client's interceptors when tracing: each start, signal, update and query in a span,
 * its context sent in the call's headers for the workflow to continue.
 */
export function tracedClient(tracer: Tracer | undefined): Pick<ClientOptions, 'interceptors'> {
  return tracer ? { interceptors: { workflow: [new OpenTelemetryWorkflowClientInterceptor({ tracer })] } } : {};
}

/** Counts calls from their start to their final status, retries included. */
function callCounter() {
  let count = 0;
  let waiters: Array<() => void> = [];
  const interceptor: Interceptor = (options, nextCall) =>
    new InterceptingCall(
      nextCall(options),
      new RequesterBuilder()
        .withStart((metadata, _listener, next) => {
          count++;
          next(
            metadata,
            new ListenerBuilder()
              .withOnReceiveStatus((status, nextStatus) => {
                if (--count === 0) for (const wake of waiters.splice(0)) wake();
                nextStatus(status);
              })
              .build(),
          );
        })
        .build(),
    );
  return {
    interceptor,
    drained: (timeoutMs: number) =>
      count === 0
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, timeoutMs);
            waiters.push(() => {
              clearTimeout(timer);
              resolve();
            });
          }),
  };
}

/** A worker's connection, retried with a capped backoff until Temporal answers. */
export async function connectWorker(options: { address: string }, logger: Logger): Promise<NativeConnection> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await NativeConnection.connect({ address: options.address });
    } catch (error) {
      if (attempt === 0 || attempt % 10 === 0) {
        logger.warn({ address: options.address, err: { message: (error as Error).message } }, 'waiting for Temporal');
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(250 * 2 ** attempt, 5_000)));
    }
  }
}
