import { isGrpcServiceError } from '@temporalio/client';
import { status as grpcStatus } from '@grpc/grpc-js';

export type DependencyName = 'temporal' | 'weaviate' | 'redis' | 'embeddings';

export const dependencyLabels: Record<DependencyName, string> = {
  temporal: 'Temporal',
  weaviate: 'Weaviate',
  redis: 'Redis',
  embeddings: 'The embeddings provider',
};

/** A call to a dependency failed because the dependency could not be reached. */
export class DependencyUnavailableError extends Error {
  constructor(
    readonly dependency: DependencyName,
    options: { cause: unknown },
  ) {
    super(`${dependencyLabels[dependency]} is unavailable`, options);
    this.name = 'DependencyUnavailableError';
  }
}

const connectionErrorClasses = new Set([
  // node-redis
  'ClientOfflineError',
  'ClientClosedError',
  'SocketClosedUnexpectedlyError',
  'ConnectionTimeoutError',
  'ReconnectStrategyError',
  // weaviate-client
  'WeaviateGRPCUnavailableError',
  'WeaviateStartUpError',
  'WeaviateRequestTimeoutError',
]);

/**
 * Replies of a Redis that is there but cannot serve yet: loading its data after a restart, busy with
 * a script, a replica without its primary, a failover under way. Like a refused connection, they
 * pass: the request is worth repeating in a moment (the fault campaign found LOADING answered 500).
 */
const redisNotReadyReply = /^(LOADING|BUSY|MASTERDOWN|READONLY|TRYAGAIN|CLUSTERDOWN)\b/;

const isRedisNotReady = (error: Error) => error.constructor.name === 'ErrorReply' && redisNotReadyReply.test(error.message);

const connectionCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'EHOSTUNREACH', 'ENOTFOUND', 'ETIMEDOUT', 'EPIPE']);

/** True when the error (or its cause) says the other side could not be reached, not that it refused the request. */
export function isConnectionError(error: unknown): boolean {
  for (let current = error; current instanceof Error; current = current.cause) {
    if (connectionErrorClasses.has(current.constructor.name) || isRedisNotReady(current)) return true;
    const code = (current as NodeJS.ErrnoException).code;
    if (code && connectionCodes.has(code)) return true;
    if (
      isGrpcServiceError(current) &&
      (current.code === grpcStatus.UNAVAILABLE || current.code === grpcStatus.DEADLINE_EXCEEDED)
    ) {
      return true;
    }
  }
  return false;
}

/**
 * Wraps every method of a dependency's client-facing object so that a connection failure comes out
 * as a DependencyUnavailableError naming the dependency; other errors pass unchanged.
 */
export function tagUnavailable<T extends object>(dependency: DependencyName, target: T): T {
  const tagged: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(target)) {
    tagged[name] =
      typeof value === 'function'
        ? async (...args: unknown[]) => {
            try {
              return await value(...args);
            } catch (error) {
              throw asUnavailable(dependency, error);
            }
          }
        : value;
  }
  return tagged as T;
}

/** The error as a DependencyUnavailableError when it is a connection failure, else unchanged. */
export function asUnavailable(dependency: DependencyName, error: unknown): unknown {
  return isConnectionError(error) && !(error instanceof DependencyUnavailableError)
    ? new DependencyUnavailableError(dependency, { cause: error })
    : error;
}

/** Which dependency an error says is unreachable, if any. */
export function unavailableDependency(error: unknown): DependencyName | undefined {
  if (error instanceof DependencyUnavailableError) return error.dependency;
  // lib/knowledge/embeddings throws it when the provider cannot answer now (429, 5xx, no connection).
  if (error instanceof Error && error.name === 'EmbeddingUnavailableError') return 'embeddings';
  if (!isConnectionError(error)) return undefined;
  const name = (error as Error).constructor.name;
  if (name.startsWith('Weaviate')) return 'weaviate';
  if (isGrpcServiceError(error) || isGrpcServiceError((error as Error).cause) || name === 'ServiceError') return 'temporal';
  if (connectionErrorClasses.has(name) || isRedisNotReady(error as Error)) return 'redis';
  return undefined;
}
