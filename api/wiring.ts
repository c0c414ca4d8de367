import type Koa from 'koa';
import { requireSetting, type Config } from '#platform/config.js';
import { dependencyChecks } from '#platform/dependency-health.js';
import type { Logger } from '#platform/logger.js';
import { closeRedisClient, connectInBackground, createRedisClient, type RedisClient } from '#platform/redis.js';
import { createTemporalClient } from '#platform/temporal.js';
import { serviceVersion } from '#platform/version.js';
import { createWeaviateClient } from '#platform/weaviate.js';
import { createMetricsRegistry } from '#platform/metrics/registry.js';
import type { Telemetry } from '#platform/telemetry.js';
import { traceCalls } from '#platform/tracing/traced-calls.js';
import { traceRedisCommands } from '#platform/tracing/traced-redis.js';
import { createTenancy } from '#tenancy/index.js';
import { createProcessEmbedders } from '#knowledge/embeddings/index.js';
import { createChunkIndex } from '#knowledge/chunk-index.js';
import { createJobStore } from '#knowledge/jobs.js';
import { createIngestionClient } from '#knowledge/ingestion-client.js';
import { createCleanupClient } from '#knowledge/cleanup-client.js';
import { createCleanupLists } from '#knowledge/cleanup-lists.js';
import { createKnowledgeSearch } from '#knowledge/search.js';
import { createReindexClient } from '#knowledge/reindex-client.js';
import { createEventFollower } from '#conversations/events.js';
import { createInbox } from '#conversations/inbox.js';
import { createConversationRecords } from '#conversations/records.js';
import { createWidgetConversationStart } from '#conversations/start.js';
import { createVerifiedVisitors } from '#conversations/verified-visitors.js';
import { createVisitorIdentity } from '#conversations/visitor-identity.js';
import { createOperatorIdentities } from '#tenancy/operator-identity.js';
import { createTranscript } from '#conversations/transcript.js';
import { createRatings } from '#insights/ratings.js';
import { createConversationClient } from '#conversations/workflow-client.js';
import { createSourceStore } from '#knowledge/sources.js';
import { createArticleFeed } from '#articles/ai-feed.js';
import { createArticleSearch } from '#articles/article-search.js';
import { createQuestionSearch } from '#articles/question-search.js';
import { createArticleStore } from '#articles/store.js';
import { createChannelState } from '#messaging/channel-state.js';
import { createMessagingConnections } from '#messaging/connections.js';
import { createGraphMediaClient } from '#messaging/graph-media.js';
import { createMessageTemplates } from '#messaging/templates.js';
import { createOutboundHttp, everyNetwork } from '#platform/outbound/outbound-http.js';
import { announcingCreation } from '#outbound-events/announced-conversations.js';
import { createDeliveryLog } from '#outbound-events/deliveries.js';
import { createEventEmitter } from '#outbound-events/emitter.js';
import { createEventEndpoints } from '#outbound-events/endpoints.js';
import { deliverySettingsOf } from '#outbound-events/settings.js';
import { createInbound } from '#messaging/inbound.js';
import { createAcknowledger, createFeedbackReplies } from '#messaging/feedback-replies.js';
import { createGraphClient } from '#messaging/graph-client.js';
import { createConversationCounts } from '#insights/conversation-counts.js';
import { secretBoxFromConfig } from '#platform/secret-box.js';
import { createConnectorSetup } from '#connectors/connect.js';
import { createConnectorRecords } from '#connectors/records.js';
import { createProductWebhooks } from '#connectors/product-webhooks.js';
import { createConnectorSchedules } from '#connectors/schedules.js';
import { createSyncState } from '#connectors/sync-state.js';
import { createDayCounters } from '#insights/day-counters.js';
import { createReports } from '#insights/reports.js';
import { createAddressedMarks } from '#insights/content-gaps/addressed.js';
import { createGapsClusteringClient } from '#insights/content-gaps/clustering-client.js';
import { createClusterResults } from '#insights/content-gaps/results.js';
import { createGapRecorder } from '#insights/content-gaps/recorder.js';
import { createContentGapStore } from '#insights/content-gaps/store.js';
import { spaceKey } from '#insights/content-gaps/vectors.js';
import { createApp } from './app.js';
import { createEventStreams } from './server-sent-events.js';
import { createApiMetrics } from './metrics.js';
import type { ApiState } from './state.js';

export interface WiredApi {
  app: Koa<ApiState>;
  /** The process's metrics (`lib/platform/metrics/`), for its endpoint. */
  metrics: Telemetry['metrics'];
  /** What is open now: event streams, and followings of conversations (each a Pub/Sub subscription). */
  live: { streams(): number; followings(): number };
  /** For shutdown: ends every event stream with a reconnect hint, now and from now on (api/shutdown.ts). */
  reconnectStreams(): number;
  /** Closes every client the API opened. */
  close(): Promise<void>;
}

/**
 * Builds the API from its configuration: one client per dependency, created here once, then the
 * app. The server entry and the integration tests both start the API this way.
 */
export async function wireApi(config: Config, logger: Logger, telemetry: Partial<Telemetry> = {}): Promise<WiredApi> {
  const registry = telemetry.metrics ?? createMetricsRegistry();
  const tracer = telemetry.tracing?.tracer;
  const untracedRedis = createRedisClient(config.redis.url, logger);
  const redis = tracer ? traceRedisCommands(untracedRedis, tracer) : untracedRedis;
  connectInBackground(redis, logger);
  // Followers of conversations listen on a connection of their own (Redis Pub/Sub takes it over).
  const subscriber = untracedRedis.duplicate();
  subscriber.on('error', () => undefined);
  connectInBackground(subscriber, logger);
  const weaviate = await createWeaviateClient(config.weaviate);
  const temporal = createTemporalClient(config.temporal, tracer);
  // The API embeds only queries: the search route's and nothing else.
  const { queries: embedder } = await createProcessEmbedders(config.embeddings, config.localModel);
  const untracedChunks = createChunkIndex(weaviate, embedder.space);
  const chunkIndex = tracer ? traceCalls(untracedChunks, tracer, 'weaviate') : untracedChunks;
  const streams = createEventStreams(config.streams);
  const secretBox = secretBoxFromConfig(config);
  const eventEndpoints = createEventEndpoints(redis, config.redis.prefix, secretBox);
  const conversations = announcingCreation(
    createConversationClient(temporal.client, config.temporal.taskQueue, { actionWaitMs: config.workflowWaitMs }),
    createEventEmitter({
      endpoints: eventEndpoints,
      temporal: temporal.client,
      taskQueue: config.temporal.taskQueue,
      settings: deliverySettingsOf(config.events),
    }),
    (error) => logger.warn({ err: { message: (error as Error).message } }, 'conversation.created not emitted'),
  );
  const metrics = createApiMetrics(registry, {
    openStreams: () => streams.size,
    waitingHandoffs: () => conversations.countWaitingForAgent(),
    logger,
  });
  const jobs = createJobStore(redis, config.redis.prefix, { observer: metrics.jobs });
  const ingestion = createIngestionClient(temporal.client, config.temporal.taskQueue, jobs);
  const articleStore = createArticleStore(redis, config.redis.prefix);
  const sources = createSourceStore(redis, config.redis.prefix);
  const articleUrl = (article: { knowledgeBaseId: string; slug: string }) =>
    config.helpCenterArticleUrl
      .replace('{knowledgeBaseId}', article.knowledgeBaseId)
      .replace('{slug}', encodeURIComponent(article.slug));
  const tenancy = createTenancy(redis, config.redis.prefix, { credentials: config.credentials });
  const records = createConversationRecords(redis, config.redis.prefix);
  const transcript = createTranscript(redis, config.redis.prefix);
  const channel = createChannelState(redis, config.redis.prefix);
  const counts = createConversationCounts(redis, config.redis.prefix);
  const messagingConnections = createMessagingConnections(redis, config.redis.prefix, secretBox);
  const timers = { agentWaitNoticeMs: config.conversations.agentWaitNoticeMs, idleTimeoutMs: config.conversations.idleTimeoutMs };
  const connectorRecords = createConnectorRecords(redis, config.redis.prefix, secretBox);
  const schedules = createConnectorSchedules(temporal.client, config.temporal.taskQueue);
  const follower = createEventFollower(redis, subscriber, config.redis.prefix);
  const identities = createOperatorIdentities(redis, config.redis.prefix, secretBox);
  // Agents' images and documents, fetched as connectors fetch (loadConfig refuses the allowance in production).
  const outbound = createOutboundHttp({
    allowedNetworks: config.outbound.allowPrivateNetworks ? everyNetwork : [],
    httpsOnly: config.env === 'production',
    maxResponseBytes: config.outbound.maxResponseBytes,
  });

  const gapStore = createContentGapStore(redis, config.redis.prefix);
  const gapsClustering = createGapsClusteringClient(temporal.client, config.temporal.taskQueue, config.contentGapsSettleSeconds);
  const gapResults = createClusterResults(gapStore);
  // A new `down` becomes a content gap, as an unanswered question does in the worker.
  const ratings = createRatings({
    redis,
    prefix: config.redis.prefix,
    records,
    transcript,
    logger,
    onRatedDown: createGapRecorder({
      store: gapStore,
      embedder,
      recorded: gapsClustering.changed,
      onError: (error, gap) =>
        logger.warn(
          { err: { message: (error as Error).message }, conversationId: gap.conversationId },
          'content gap not recorded',
        ),
    }),
  });

  const app = createApp({
    logger,
    metrics,
    ...(tracer ? { tracer } : {}),
    redis,
    tenancy,
    ingestion,
    cleanups: createCleanupClient(temporal.client, config.temporal.taskQueue, createCleanupLists(redis, config.redis.prefix), {
      waitMs: config.cleanupWaitMs,
    }),
    reindex: createReindexClient(temporal.client, config.temporal.taskQueue),
    jobs,
    search: createKnowledgeSearch({
      chunkIndex,
      embedder,
      sources,
      minSimilarity: config.searchMinSimilarity,
    }),
    checks: dependencyChecks({ redis, weaviate, temporal: temporal.client }),
    articles: {
      store: articleStore,
      feed: createArticleFeed({ ingestion, articleUrl }),
      articleSearch: createArticleSearch({ chunkIndex, articles: articleStore, jobs, sources }),
      questionSearch: createQuestionSearch(articleStore),
    },
    chat: {
      records,
      transcript,
      follower,
      conversations,
      startConversation: createWidgetConversationStart({ records, transcript, conversations, timers, counts }),
      inbox: createInbox({ redis, prefix: config.redis.prefix, records, channel }),
      ratings,
    },
    identity: {
      identities,
      visitorIdentity: createVisitorIdentity({ redis, prefix: config.redis.prefix, identities }),
      verifiedVisitors: createVerifiedVisitors({ redis, prefix: config.redis.prefix, records, transcript }),
    },
    messaging: {
      connections: messagingConnections,
      inbound: createInbound({
        records,
        channel,
        conversations,
        tenancy,
        timers,
        logger,
        counts,
        feedback: createFeedbackReplies({
          records,
          transcript,
          ratings,
          acknowledger: createAcknowledger({
            connections: messagingConnections,
            graph: createGraphClient({ baseUrl: config.graphApiBaseUrl }),
            logger,
          }),
        }),
      }),
      channel,
      allowDevelopmentMode: config.env !== 'production',
      templates: createMessageTemplates(redis, config.redis.prefix),
      media: { http: outbound, graph: createGraphMediaClient({ baseUrl: config.graphApiBaseUrl }) },
    },
    connectors: {
      records: connectorRecords,
      setup: createConnectorSetup({
        tenancy,
        connectors: connectorRecords,
        schedules,
        maxPerTenant: config.connectors.perTenant,
      }),
      syncState: createSyncState(redis, config.redis.prefix),
      schedules,
      productWebhooks: createProductWebhooks(temporal.client, config.temporal.taskQueue),
      production: config.env === 'production',
    },
    outboundEvents: { endpoints: eventEndpoints, deliveries: createDeliveryLog(redis, config.redis.prefix) },
    contentGaps: {
      results: gapResults,
      marks: createAddressedMarks({
        store: gapStore,
        space: spaceKey(embedder.space),
        changed: gapsClustering.changed,
        onError: (error) => logger.warn({ err: { message: (error as Error).message } }, 'content gaps not clustered again'),
      }),
    },
    streams,
    insights: { reports: createReports({ counters: createDayCounters(redis, config.redis.prefix), contentGaps: gapResults }) },
    settings: {
      streams: config.streams,
      adminToken: requireSetting(config.adminToken, 'ADMIN_TOKEN'),
      redisPrefix: config.redis.prefix,
      bodyLimitBytes: config.bodyLimitBytes,
      rateLimitPerMinute: config.rateLimitPerMinute,
      helpCentre: config.helpCentre,
      tokens: {
        adminPerMinute: config.adminPerMinute,
        userPerMinute: config.userPerMinute,
        refusedTokensPerMinute: config.refusedTokensPerMinute,
      },
      publicBaseUrl: config.publicBaseUrl,
      version: serviceVersion,
      trustedProxyHops: config.trustedProxyHops,
      chat: {
        timers,
        replyTimeoutMs: config.conversations.replyTimeoutMs,
        visitorPerMinute: config.conversations.visitorPerMinute,
        operatorPerMinute: config.conversations.operatorPerMinute,
        configPerMinute: config.conversations.configPerMinute,
        conversationsPerHour: config.conversations.conversationsPerHour,
        ratingsPerVisitor: config.conversations.ratingsPerVisitor,
        ratingsOperatorPerMinute: config.conversations.ratingsOperatorPerMinute,
        operatorAnswersPerDay: config.conversations.operatorAnswersPerDay,
      },
    },
  });

  return {
    app,
    metrics: registry,
    live: { streams: () => streams.size, followings: () => follower.size },
    reconnectStreams: () => streams.reconnectAll(),
    async close() {
      await Promise.allSettled([
        closeRedisClient(redis),
        closeRedisClient(subscriber),
        weaviate.close(),
        temporal.close(),
        outbound.close(),
      ]);
    },
  };
}
