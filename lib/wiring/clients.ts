import type { Tracer } from '@opentelemetry/api';
import { createProcessEmbedders, type MiniLmOptions, type ProcessEmbedders } from '#knowledge/embeddings/index.js';
import type { Config } from '#platform/config.js';
import type { Logger } from '#platform/logger.js';
import { createOutboundHttp, everyNetwork } from '#platform/outbound/outbound-http.js';
import { closeRedisClient, connectInBackground, createRedisClient, type RedisClient } from '#platform/redis.js';
import { traceRedisCommands } from '#platform/tracing/traced-redis.js';
import { createWeaviateClient, type WeaviateClient } from '#platform/weaviate.js';

export interface ProcessClients {
  /** The process's one Redis client (its commands traced when the process is), connecting in the background. */
  redis: RedisClient;
  weaviate: WeaviateClient;
  /** The embedders of the configured model: the chunks' and the queries' (`lib/knowledge/embeddings/`). */
  embedders: ProcessEmbedders;
  /**
   * The one way out for requests made on a tenant's behalf (`lib/platform/outbound/`): connectors'
   * sources, agents' files, event deliveries. loadConfig refuses the private-network allowance in production.
   */
  outbound: ReturnType<typeof createOutboundHttp>;
  /** Another connection to the same Redis, untraced (Pub/Sub takes a connection over), closed with the rest. */
  newRedisConnection(): RedisClient;
  /** Closes every client opened here. */
  close(): Promise<void>;
}

/**
 * The clients of one process (the API's or a worker's), each opened once: Redis, Weaviate, the
 * embedding model and the outbound HTTP client. Temporal is the process's own: the API's client is
 * lazy, a worker's shares its worker connection.
 */
export async function openClients(
  config: Pick<Config, 'redis' | 'weaviate' | 'embeddings' | 'localModel' | 'outbound' | 'env'>,
  logger: Logger,
  options: { tracer?: Tracer; localModel?: MiniLmOptions } = {},
): Promise<ProcessClients> {
  const { tracer } = options;
  const untracedRedis = createRedisClient(config.redis.url, logger);
  const redis = tracer ? traceRedisCommands(untracedRedis, tracer) : untracedRedis;
  connectInBackground(redis, logger);
  const connections: RedisClient[] = [];
  const weaviate = await createWeaviateClient(config.weaviate);
  const embedders = await createProcessEmbedders(config.embeddings, options.localModel ?? config.localModel);
  const outbound = createOutboundHttp({
    allowedNetworks: config.outbound.allowPrivateNetworks ? everyNetwork : [],
    httpsOnly: config.env === 'production',
    maxResponseBytes: config.outbound.maxResponseBytes,
  });
  return {
    redis,
    weaviate,
    embedders,
    outbound,
    newRedisConnection() {
      const connection = untracedRedis.duplicate();
      connection.on('error', () => undefined);
      connectInBackground(connection, logger);
      connections.push(connection);
      return connection;
    },
    async close() {
      await Promise.allSettled([
        closeRedisClient(redis),
        ...connections.map(closeRedisClient),
        weaviate.close(),
        outbound.close(),
      ]);
    },
  };
}
