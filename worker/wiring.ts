import { Client } from '@temporalio/client';
import { Worker, type NativeConnection, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { createActivities } from '#activities/index.js';
import { answerRetrieval, createAnswerGenerator, createQuestionAnswerer, createSentenceMemory } from '#answering/index.js';
import { createSentenceEmbedder } from '#knowledge/embeddings/index.js';
import { clusteringThread } from '#insights/content-gaps/clustering-runner.js';
import { spaceKey } from '#insights/content-gaps/vectors.js';
import type { Config } from '#platform/config.js';
import type { Logger } from '#platform/logger.js';
import { createMetricsRegistry } from '#platform/metrics/registry.js';
import { timeCalls } from '#platform/metrics/timed-calls.js';
import { tracedClient } from '#platform/temporal.js';
import type { Telemetry } from '#platform/telemetry.js';
import { createTenancy } from '#tenancy/index.js';
import { createOfficeTime } from '#conversations/office-time.js';
import { openClients } from '#wiring/clients.js';
import { createStores } from '#wiring/stores.js';
import { createDocumentReader } from '#connectors/documents/document-reader.js';
import { defaultDocumentLimits } from '#connectors/documents/limits.js';
import { createConnectorActivityDeps } from './connector-deps.js';
import { workerSearchIndexer } from './conversation-search.js';
import { polledQueues } from './task-queues.js';
import { bundleWorkflows } from './bundle.js';
import { workerShutdownOptions } from './shutdown.js';
import { createWorkerMetrics } from './metrics.js';
import { workerTracingOptions } from './tracing.js';

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
  const localModel = { ...config.localModel, observer: metrics.model };
  const clients = await openClients(config, logger, { ...(tracer ? { tracer } : {}), localModel });
  const { redis, embedders, outbound } = clients;
  const embedder = embedders.documents;
  const sentences = await createSentenceEmbedder(config.embeddings, embedders, config.localModelDir, localModel);
  const temporal = new Client({ connection, namespace: config.temporal.namespace, ...tracedClient(tracer) });
  // The ingestion's stores are timed as dependencies, for its metrics.
  const stores = createStores({
    config,
    logger,
    redis,
    weaviate: clients.weaviate,
    temporal,
    embedders,
    ...(tracer ? { tracer } : {}),
    timing: metrics.dependency,
    jobObserver: metrics.jobs,
    syncRuns: metrics.connectors,
  });
  const { knowledge, conversations, messaging, outboundEvents } = stores;
  const { chunkIndex } = knowledge;
  // The collection is defined in code and created here, idempotently; while Weaviate is away the
  // first activity that needs it tries again.
  await chunkIndex
    .collection()
    .catch((error: Error) => logger.warn({ err: { message: error.message } }, 'chunk collection not ready yet'));
  // Clustering an operator's gaps takes up to seconds of CPU, and loading them up to 125 MB of JSON: on a
  // thread of its own, with a Redis connection of its own, off the event loop.
  const documents = createDocumentReader();
  const clustering = clusteringThread({
    redisUrl: config.redis.url,
    prefix: config.redis.prefix,
    logLevel: config.logLevel,
  });
  const tenancy = createTenancy(redis, config.redis.prefix);
  const activities = createActivities({
    jobs: knowledge.jobs,
    sources: knowledge.sources,
    chunkIndex,
    // Timed as a dependency: its calls are the model's queue and runs, for the ingestion's metrics.
    embedder: timeCalls(embedder, metrics.dependency('model')),
    ingestion: knowledge.ingestion,
    cleanupLists: knowledge.cleanupLists,
    conversations: {
      records: conversations.records,
      transcript: conversations.transcript,
      answerBudget: conversations.answerBudget,
      events: conversations.events,
      answerQuestion: createQuestionAnswerer({
        search: knowledge.search,
        generator: createAnswerGenerator(config.answers, logger, sentences, metrics.answerFallback),
        retrieval: answerRetrieval,
        evidence: config.answerEvidence,
        sentences,
        memory: {
          ...createSentenceMemory({ chunkIndex, sentences }),
          onError: (error) => logger.warn({ err: { message: (error as Error).message } }, 'sentence vectors not kept'),
        },
      }),
      counts: stores.insights.counts,
      channel: messaging.channel,
      metrics: metrics.conversations,
      recordGap: stores.insights.contentGaps.record,
      searchChanges: conversations.searchChanges,
      waitedMs: createOfficeTime({ records: conversations.records, tenancy }),
    },
    sla: { records: conversations.records, tenancy, counts: stores.insights.slaCounts },
    assignment: {
      assigner: conversations.assigner,
      tenancy,
      log: conversations.assignmentLog,
      inboxChanges: conversations.inboxChanges,
    },
    delivery: {
      transcript: conversations.transcript,
      channel: messaging.channel,
      connections: messaging.connections,
      graph: messaging.graph,
      metrics: metrics.delivery,
    },
    connectors: createConnectorActivityDeps({
      ...stores.connectors,
      ingestionApiUrl: config.connectorsApiUrl,
      // Every request a connector makes for a tenant.
      http: outbound,
      logger,
      maxPagesPerRun: config.connectors.maxPagesPerRun,
      documentLimits: defaultDocumentLimits,
      documents,
      crawlObserver: metrics.crawls,
      fileObserver: metrics.files,
    }),
    outboundEvents: outboundEvents.emitter,
    eventDelivery: {
      endpoints: outboundEvents.endpoints,
      deliveries: outboundEvents.deliveries,
      http: outbound,
      requestTimeoutMs: config.events.requestTimeoutMs,
    },
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
  // Keeps the conversation search in step while the worker runs (docs/agent-inbox.md, "Conversation search").
  const searchIndexer = workerSearchIndexer(config.workerRole, { redis, prefix: config.redis.prefix, logger, stores });

  return {
    metrics: registry,
    async run() {
      searchIndexer?.start();
      await Promise.all(workers.map((worker) => worker.run()));
    },
    shutdown() {
      for (const worker of workers) if (worker.getState() === 'RUNNING') worker.shutdown();
      void searchIndexer?.stop();
    },
    ready: () => workers.every((worker) => worker.getState() === 'RUNNING'),
    async close() {
      await searchIndexer?.stop();
      await Promise.allSettled([clients.close(), clustering.close(), documents.close()]);
    },
  };
}
