import { Client } from '@temporalio/client';
import { Worker, type NativeConnection, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { createActivities } from '#activities/index.js';
import { answerRetrieval, createAnswerGenerator, createQuestionAnswerer, createSentenceMemory } from '#answering/index.js';
import { createProcessEmbedders, createSentenceEmbedder } from '#knowledge/embeddings/index.js';
import { createEventPublisher } from '#conversations/events.js';
import { createAnswerBudget } from '#conversations/answer-budget.js';
import { createConversationRecords } from '#conversations/records.js';
import { createTranscript } from '#conversations/transcript.js';
import { createChannelState } from '#messaging/channel-state.js';
import { createConversationCounts } from '#insights/conversation-counts.js';
import { createMessagingConnections } from '#messaging/connections.js';
import { createGraphClient } from '#messaging/graph-client.js';
import { createOutboundHttp, everyNetwork } from '#platform/outbound/outbound-http.js';
import { secretBoxFromConfig } from '#platform/secret-box.js';
import { createConnectorActivityDeps } from './connector-deps.js';
import { createOutboundEvents } from './outbound-events.js';
import type { Config } from '#platform/config.js';
import type { Logger } from '#platform/logger.js';
import { closeRedisClient, connectInBackground, createRedisClient } from '#platform/redis.js';
import { createWeaviateClient } from '#platform/weaviate.js';
import { createChunkIndex } from '#knowledge/chunk-index.js';
import { createIngestionClient } from '#knowledge/ingestion-client.js';
import { createJobStore } from '#knowledge/jobs.js';
import { createCleanupLists } from '#knowledge/cleanup-lists.js';
import { createKnowledgeSearch } from '#knowledge/search.js';
import { createSourceStore } from '#knowledge/sources.js';
import { createGapRecorder } from '#insights/content-gaps/recorder.js';
import { createGapsClusteringClient } from '#insights/content-gaps/clustering-client.js';
import { createContentGapStore } from '#insights/content-gaps/store.js';
import { startClusteringThread } from '#insights/content-gaps/clustering-runner.js';
import { spaceKey } from '#insights/content-gaps/vectors.js';
import { polledQueues } from './task-queues.js';
import { bundleWorkflows } from './bundle.js';
import { workerShutdownOptions } from './shutdown.js';
import { createWorkerMetrics } from './metrics.js';
import { workerTracingOptions } from './tracing.js';
import { createMetricsRegistry } from '#platform/metrics/registry.js';
import { tracedClient } from '#platform/temporal.js';
import type { Telemetry } from '#platform/telemetry.js';
import { traceCalls } from '#platform/tracing/traced-calls.js';
import { timeCalls } from '#platform/metrics/timed-calls.js';
import { traceRedisCommands } from '#platform/tracing/traced-redis.js';

export interface WiredWorker {
  /** The process's metrics (`lib/platform/metrics/`), for its endpoint. */
  metrics: Telemetry['metrics'];
  /** Polls every task queue until shutdown (SIGINT/SIGTERM, or `shutdown()`). */
  run(): Promise<void>;
  shutdown(): void;
  /** True while every Temporal worker of the process polls (not before `run()`, not once shutting down). */
  ready(): boolean;
  /** Closes the clients (and the clustering thread) once `run()` has returned. */
  close(): Promise<void>;
}

/**
 * One worker process: a Temporal worker per task queue its role polls (`task-queues.ts`), sharing
 * one workflow bundle and one set of clients. The worker entry and the integration tests both use it.
 */
export async function wireWorker(
  config: Config,
  logger: Logger,
  connection: NativeConnection,
  telemetry: Partial<Telemetry> = {},
  /** A bundle of the workflows made already (the tests keep one per content); bundled here otherwise. */
  prebundled?: Promise<WorkflowBundleWithSourceMap>,
): Promise<WiredWorker> {
  const registry = telemetry.metrics ?? createMetricsRegistry();
  const metrics = createWorkerMetrics(registry);
  const { tracing } = telemetry;
  const tracer = tracing?.tracer;
  const untracedRedis = createRedisClient(config.redis.url, logger);
  const redis = tracer ? traceRedisCommands(untracedRedis, tracer) : untracedRedis;
  connectInBackground(redis, logger);
  const weaviate = await createWeaviateClient(config.weaviate);
  const localModel = { ...config.localModel, observer: metrics.model };
  const embedders = await createProcessEmbedders(config.embeddings, localModel);
  const embedder = embedders.documents;
  const sentences = await createSentenceEmbedder(config.embeddings, embedders, config.localModelDir, localModel);
  const untracedChunks = timeCalls(createChunkIndex(weaviate, embedder.space), metrics.dependency('weaviate'));
  const chunkIndex = tracer ? traceCalls(untracedChunks, tracer, 'weaviate') : untracedChunks;
  // The collection is defined in code and created here, idempotently; while Weaviate is away the
  // first activity that needs it tries again.
  await chunkIndex
    .collection()
    .catch((error: Error) => logger.warn({ err: { message: error.message } }, 'chunk collection not ready yet'));
  const sources = timeCalls(createSourceStore(redis, config.redis.prefix), metrics.dependency('redis'));
  const search = createKnowledgeSearch({
    chunkIndex,
    embedder: embedders.queries,
    sources,
    minSimilarity: config.searchMinSimilarity,
  });
  const transcript = createTranscript(redis, config.redis.prefix);
  const secretBox = secretBoxFromConfig(config);
  const jobs = timeCalls(createJobStore(redis, config.redis.prefix, { observer: metrics.jobs }), metrics.dependency('redis'));
  const temporal = new Client({ connection, namespace: config.temporal.namespace, ...tracedClient(tracer) });
  // Every request a connector makes for a tenant; loadConfig refuses the allowance in production.
  const outbound = createOutboundHttp({
    allowedNetworks: config.outbound.allowPrivateNetworks ? everyNetwork : [],
    httpsOnly: config.env === 'production',
    maxResponseBytes: config.outbound.maxResponseBytes,
  });
  const outboundEvents = createOutboundEvents({ redis, secretBox, temporal, config, http: outbound });
  const events = createEventPublisher(redis, config.redis.prefix);
  const channel = createChannelState(redis, config.redis.prefix, events);
  const gapStore = createContentGapStore(redis, config.redis.prefix);
  // Questions are embedded as search embeds them (the queries' cache already holds the one just asked).
  const recordGap = createGapRecorder({
    store: gapStore,
    embedder: embedders.queries,
    recorded: createGapsClusteringClient(temporal, config.temporal.taskQueue, config.contentGapsSettleSeconds).changed,
    onError: (error, gap) =>
      logger.warn({ err: { message: (error as Error).message }, conversationId: gap.conversationId }, 'content gap not recorded'),
  });
  // Clustering an operator's gaps takes up to seconds of CPU, and loading them up to 125 MB of JSON: on a
  // thread of its own, with a Redis connection of its own, off the event loop.
  const clustering = startClusteringThread({
    redisUrl: config.redis.url,
    prefix: config.redis.prefix,
    logLevel: config.logLevel,
  });
  const activities = createActivities({
    jobs,
    sources,
    chunkIndex,
    // Timed as a dependency: its calls are the model's queue and runs, for the ingestion's metrics.
    embedder: timeCalls(embedder, metrics.dependency('model')),
    ingestion: createIngestionClient(temporal, config.temporal.taskQueue, jobs),
    cleanupLists: createCleanupLists(redis, config.redis.prefix),
    conversations: {
      records: createConversationRecords(redis, config.redis.prefix),
      transcript,
      answerBudget: createAnswerBudget(redis, {
        prefix: config.redis.prefix,
        perDay: config.conversations.operatorAnswersPerDay,
      }),
      events,
      answerQuestion: createQuestionAnswerer({
        search,
        generator: createAnswerGenerator(config.answers, logger, sentences, metrics.answerFallback),
        retrieval: answerRetrieval,
        evidence: config.answerEvidence,
        sentences,
        memory: {
          ...createSentenceMemory({ chunkIndex, sentences }),
          onError: (error) => logger.warn({ err: { message: (error as Error).message } }, 'sentence vectors not kept'),
        },
      }),
      counts: createConversationCounts(redis, config.redis.prefix),
      channel,
      metrics: metrics.conversations,
      recordGap,
    },
    delivery: {
      transcript,
      channel,
      connections: createMessagingConnections(redis, config.redis.prefix, secretBox),
      graph: createGraphClient({ baseUrl: config.graphApiBaseUrl }),
      metrics: metrics.delivery,
    },
    connectors: createConnectorActivityDeps({
      redis,
      prefix: config.redis.prefix,
      secretBox,
      ingestionApiUrl: config.connectorsApiUrl,
      http: outbound,
      logger,
      maxPagesPerRun: config.connectors.maxPagesPerRun,
      runs: metrics.connectors,
    }),
    outboundEvents: outboundEvents.emitter,
    eventDelivery: outboundEvents.delivery,
    contentGaps: { space: spaceKey(embedders.queries.space), cluster: clustering.cluster },
  });

  const workflowBundle = await (prebundled ?? bundleWorkflows({ tracing: tracing !== undefined }));
  const traced = workerTracingOptions(tracing);
  const queues = polledQueues(config.workerRole, config.temporal.taskQueue, {
    base: 16,
    ingest: config.ingestConcurrency,
    connectors: config.connectors.concurrency,
  });
  const workers = await Promise.all(
    queues.map(({ taskQueue, workflows, activitySlots }) =>
      Worker.create({
        connection,
        namespace: config.temporal.namespace,
        taskQueue,
        ...(workflows ? { workflowBundle } : {}),
        ...(activitySlots ? { activities, maxConcurrentActivityTaskExecutions: activitySlots } : {}),
        // Shutdown stops polling, lets running activities finish within the grace, then cancels them.
        ...workerShutdownOptions(config.shutdownGraceMs),
        ...traced,
      }),
    ),
  );
  logger.info({ role: config.workerRole, taskQueues: queues, embeddings: embedder.space }, 'worker ready');

  return {
    metrics: registry,
    async run() {
      await Promise.all(workers.map((worker) => worker.run()));
    },
    shutdown() {
      for (const worker of workers) if (worker.getState() === 'RUNNING') worker.shutdown();
    },
    ready: () => workers.every((worker) => worker.getState() === 'RUNNING'),
    async close() {
      await Promise.allSettled([closeRedisClient(redis), weaviate.close(), outbound.close(), clustering.close()]);
    },
  };
}
