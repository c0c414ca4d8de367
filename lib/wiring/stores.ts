import type { Tracer } from '@opentelemetry/api';
import type { Client } from '@temporalio/client';
import { createAnswerBudget } from '#conversations/answer-budget.js';
import { createConversationRecords } from '#conversations/records.js';
import { createTranscript } from '#conversations/transcript.js';
import { createAssigner } from '#conversations/assignment.js';
import { createSlaCounts } from '#insights/sla-counts.js';
import { createAssignmentLog } from '#conversations/assignment-log.js';
import { createAvailability } from '#conversations/availability.js';
import { createInboxChanges } from '#conversations/inbox-changes.js';
import { createTenancy } from '#tenancy/index.js';
import { createSearchChanges } from '#conversations/search/changes.js';
import { createConversationSearchIndex } from '#conversations/search/search-index.js';
import { createConnectorRecords } from '#connectors/records.js';
import { createSyncState, type SyncRunObserver } from '#connectors/sync-state.js';
import { createCrawlState } from '#connectors/website/crawl-state.js';
import { createFileRecords } from '#connectors/files/file-records.js';
import { createUploadStaging } from '#connectors/files/staging.js';
import { createGapsClusteringClient } from '#insights/content-gaps/clustering-client.js';
import { createGapRecorder } from '#insights/content-gaps/recorder.js';
import { createContentGapStore } from '#insights/content-gaps/store.js';
import { createConversationCounts } from '#insights/conversation-counts.js';
import { createChunkIndex } from '#knowledge/chunk-index.js';
import { createCleanupLists } from '#knowledge/cleanup-lists.js';
import type { ProcessEmbedders } from '#knowledge/embeddings/index.js';
import { createIngestionClient } from '#knowledge/ingestion-client.js';
import { createJobStore, type JobObserver } from '#knowledge/jobs.js';
import { createKnowledgeSearch } from '#knowledge/search.js';
import { createSourceStore } from '#knowledge/sources.js';
import { createChannelState } from '#messaging/channel-state.js';
import { createEventPublisher } from '#conversations/events.js';
import { createMessagingConnections } from '#messaging/connections.js';
import { createGraphClient } from '#messaging/graph-client.js';
import { createDeliveryLog } from '#outbound-events/deliveries.js';
import { createEventEmitter } from '#outbound-events/emitter.js';
import { createEventEndpoints } from '#outbound-events/endpoints.js';
import { deliverySettingsOf } from '#outbound-events/settings.js';
import type { Config } from '#platform/config.js';
import type { Logger } from '#platform/logger.js';
import { timeCalls } from '#platform/metrics/timed-calls.js';
import type { RedisClient } from '#platform/redis.js';
import { secretBoxFromConfig } from '#platform/secret-box.js';
import { traceCalls } from '#platform/tracing/traced-calls.js';
import type { WeaviateClient } from '#platform/weaviate.js';

export interface StoreDeps {
  config: Pick<
    Config,
    | 'redis'
    | 'temporal'
    | 'secretsKey'
    | 'previousSecretsKeys'
    | 'searchMinSimilarity'
    | 'conversations'
    | 'graphApiBaseUrl'
    | 'events'
    | 'contentGapsSettleSeconds'
  >;
  logger: Logger;
  redis: RedisClient;
  weaviate: WeaviateClient;
  temporal: Client;
  embedders: ProcessEmbedders;
  /** Present when the process is traced: the chunk index's calls in spans. */
  tracer?: Tracer;
  /** Told how long each call of the ingestion's stores took, by dependency (the worker's metrics). */
  timing?: (dependency: 'redis' | 'weaviate') => (method: string, seconds: number) => void;
  /** Told of each job's change of state (the process's metrics). */
  jobObserver?: JobObserver;
  /** Told of each connector sync run that ends (the worker's metrics). */
  syncRuns?: SyncRunObserver;
}

/**
 * The stores and Temporal clients both processes use, built here the one way both use them: the
 * API and the worker each call this with their own clients, then build what is theirs alone.
 */
export function createStores({
  config,
  logger,
  redis,
  weaviate,
  temporal,
  embedders,
  tracer,
  timing,
  jobObserver,
  syncRuns,
}: StoreDeps) {
  const { prefix } = config.redis;
  const { taskQueue } = config.temporal;
  const timed = <T extends object>(dependency: 'redis' | 'weaviate', store: T): T =>
    timing ? timeCalls(store, timing(dependency)) : store;
  const secretBox = secretBoxFromConfig(config);

  const untracedChunks = timed('weaviate', createChunkIndex(weaviate, embedders.documents.space));
  const chunkIndex = tracer ? traceCalls(untracedChunks, tracer, 'weaviate') : untracedChunks;
  const sources = timed('redis', createSourceStore(redis, prefix));
  const jobs = timed('redis', createJobStore(redis, prefix, jobObserver ? { observer: jobObserver } : {}));
  const knowledge = {
    chunkIndex,
    sources,
    jobs,
    search: createKnowledgeSearch({
      chunkIndex,
      embedder: embedders.queries,
      sources,
      minSimilarity: config.searchMinSimilarity,
    }),
    ingestion: createIngestionClient(temporal, taskQueue, jobs),
    cleanupLists: createCleanupLists(redis, prefix),
  };

  const gapStore = createContentGapStore(redis, prefix);
  const gapsClustering = createGapsClusteringClient(temporal, taskQueue, config.contentGapsSettleSeconds);
  const insights = {
    counts: createConversationCounts(redis, prefix),
    /** Service-level outcomes per team and agent (docs/agent-inbox.md, "Office hours and SLAs"). */
    slaCounts: createSlaCounts(redis, prefix),
    contentGaps: {
      store: gapStore,
      clustering: gapsClustering,
      /**
       * Records an unanswered question (the worker) or an answer rated down (the API) as a content
       * gap. Its question is embedded as search embeds it: the queries' cache already holds the one just asked.
       */
      record: createGapRecorder({
        store: gapStore,
        embedder: embedders.queries,
        recorded: gapsClustering.changed,
        onError: (error, gap) =>
          logger.warn(
            { err: { message: (error as Error).message }, conversationId: gap.conversationId },
            'content gap not recorded',
          ),
      }),
    },
  };

  const eventEndpoints = createEventEndpoints(redis, prefix, secretBox);
  const outboundEvents = {
    endpoints: eventEndpoints,
    emitter: createEventEmitter({
      endpoints: eventEndpoints,
      temporal,
      taskQueue,
      settings: deliverySettingsOf(config.events),
    }),
    deliveries: createDeliveryLog(redis, prefix),
  };

  const events = createEventPublisher(redis, prefix);
  const records = createConversationRecords(redis, prefix);
  const transcript = createTranscript(redis, prefix);
  const availability = createAvailability(redis, prefix);
  return {
    secretBox,
    knowledge,
    conversations: {
      /** A conversation's events, published to its followers (the channel state publishes deliveries too). */
      events,
      records,
      transcript,
      /** Teams and assignment (docs/agent-inbox.md): agents' availability, who gets what, its history, the inbox's nudges. */
      availability,
      assigner: createAssigner({ redis, prefix, tenancy: createTenancy(redis, prefix), records, availability, transcript }),
      assignmentLog: createAssignmentLog(redis, prefix),
      inboxChanges: createInboxChanges(redis, prefix),
      /** Each operator's AI answers per UTC day: spent by the chat route, and by the worker for messaging conversations. */
      answerBudget: createAnswerBudget(redis, { prefix, perDay: config.conversations.operatorAnswersPerDay }),
      /** The conversations the search index has yet to take in: marked beside each change (docs/agent-inbox.md). */
      searchChanges: createSearchChanges(redis, prefix),
      /** The agents' conversation search (Weaviate, BM25): written by the worker's indexer, read by the API. */
      searchIndex: createConversationSearchIndex(weaviate),
    },
    insights,
    messaging: {
      channel: createChannelState(redis, prefix, events),
      connections: createMessagingConnections(redis, prefix, secretBox),
      graph: createGraphClient({ baseUrl: config.graphApiBaseUrl }),
    },
    connectors: {
      records: createConnectorRecords(redis, prefix, secretBox),
      syncState: createSyncState(redis, prefix, syncRuns ? { observer: syncRuns } : {}),
      crawlState: createCrawlState(redis, prefix),
      files: createFileRecords(redis, prefix),
      staging: createUploadStaging(redis, prefix),
    },
    outboundEvents,
  };
}

export type Stores = ReturnType<typeof createStores>;
