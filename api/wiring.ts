import type Koa from 'koa';
import { requireSetting, type Config } from '#platform/config.js';
import { dependencyChecks } from '#platform/dependency-health.js';
import type { Logger } from '#platform/logger.js';
import { createTemporalClient } from '#platform/temporal.js';
import { serviceVersion } from '#platform/version.js';
import { createMetricsRegistry } from '#platform/metrics/registry.js';
import type { Telemetry } from '#platform/telemetry.js';
import { createTenancy } from '#tenancy/index.js';
import { createInboxPlacement } from '#conversations/inbox-offers.js';
import { createOperatorIdentities } from '#tenancy/operator-identity.js';
import { createCleanupClient } from '#knowledge/cleanup-client.js';
import { createReindexClient } from '#knowledge/reindex-client.js';
import { createEventFollower } from '#conversations/events.js';
import { createLiveChannels } from '#conversations/live-channels.js';
import { createNoteWriter } from '#conversations/note-writing.js';
import { createNoteFollower, createNotes } from '#conversations/notes.js';
import { createNotificationFollower, createNotifications } from '#conversations/notifications.js';
import { createInbox } from '#conversations/inbox.js';
import { createCannedReplies } from '#conversations/canned-replies.js';
import { createWidgetConversationStart } from '#conversations/start.js';
import { createVerifiedVisitors } from '#conversations/verified-visitors.js';
import { createVisitorIdentity } from '#conversations/visitor-identity.js';
import { createConversationClient } from '#conversations/workflow-client.js';
import { createRatings } from '#insights/ratings.js';
import { createArticleFeed } from '#articles/ai-feed.js';
import { createArticleSearch } from '#articles/article-search.js';
import { createQuestionSearch } from '#articles/question-search.js';
import { createArticleStore } from '#articles/store.js';
import { createGraphMediaClient } from '#messaging/graph-media.js';
import { createMessageTemplates } from '#messaging/templates.js';
import { createInbound } from '#messaging/inbound.js';
import { createAcknowledger, createFeedbackReplies } from '#messaging/feedback-replies.js';
import { announcingCreation } from '#outbound-events/announced-conversations.js';
import { createConnectorSetup } from '#connectors/connect.js';
import { createProductWebhooks } from '#connectors/product-webhooks.js';
import { createConnectorSchedules } from '#connectors/schedules.js';
import { createFileUploads, maxFilesPerSource } from '#connectors/files/file-uploads.js';
import { defaultDocumentLimits } from '#connectors/documents/limits.js';
import { createShopWebhookReplays } from '#connectors/shop/webhook-replays.js';
import { createDayCounters } from '#insights/day-counters.js';
import { createReports } from '#insights/reports.js';
import { createAddressedMarks } from '#insights/content-gaps/addressed.js';
import { createClusterResults } from '#insights/content-gaps/results.js';
import { spaceKey } from '#insights/content-gaps/vectors.js';
import { openClients } from '#wiring/clients.js';
import { createStores } from '#wiring/stores.js';
import { createApp } from './app.js';
import { createEventStreams } from './server-sent-events.js';
import { createApiMetrics } from './metrics.js';
import { createReplyExtras } from './routes/agent/reply-extras.js';
import { createAgentNotesView } from './routes/agent/notes-live.js';
import { createConversationSearch } from '#conversations/search/conversation-search.js';
import { markingSatisfaction } from '#conversations/search/rating-changes.js';
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
 * Builds the API from its configuration: one client per dependency, created here once, the stores it
 * shares with the worker (`lib/wiring/`), what is the API's alone, then the app. The server entry and
 * the integration tests both start the API this way.
 */
export async function wireApi(config: Config, logger: Logger, telemetry: Partial<Telemetry> = {}): Promise<WiredApi> {
  const registry = telemetry.metrics ?? createMetricsRegistry();
  const tracer = telemetry.tracing?.tracer;
  const clients = await openClients(config, logger, tracer ? { tracer } : {});
  const { redis, weaviate, outbound } = clients;
  // Followers of conversations listen on a connection of their own (Redis Pub/Sub takes it over).
  const subscriber = clients.newRedisConnection();
  const temporal = createTemporalClient(config.temporal, tracer);
  const streams = createEventStreams(config.streams);
  const metrics = createApiMetrics(registry, {
    openStreams: () => streams.size,
    // Read at each scrape, once `conversations` below exists.
    waitingHandoffs: () => conversations.countWaitingForAgent(),
    logger,
  });
  // The API embeds only queries: the search route's, and the questions of answers rated down.
  const stores = createStores({
    config,
    logger,
    redis,
    weaviate,
    temporal: temporal.client,
    embedders: clients.embedders,
    ...(tracer ? { tracer } : {}),
    jobObserver: metrics.jobs,
  });
  const { secretBox, knowledge, insights } = stores;
  const { records, transcript } = stores.conversations;
  const { channel, connections: messagingConnections } = stores.messaging;
  const { ingestion, jobs, sources, chunkIndex } = knowledge;
  const { counts } = insights;
  const conversations = announcingCreation(
    createConversationClient(temporal.client, config.temporal.taskQueue, { actionWaitMs: config.workflowWaitMs }),
    stores.outboundEvents.emitter,
    (error) => logger.warn({ err: { message: (error as Error).message } }, 'conversation.created not emitted'),
  );
  const articleStore = createArticleStore(redis, config.redis.prefix);
  const articleUrl = (article: { knowledgeBaseId: string; slug: string }) =>
    config.helpCenterArticleUrl
      .replace('{knowledgeBaseId}', article.knowledgeBaseId)
      .replace('{slug}', encodeURIComponent(article.slug));
  const tenancy = createTenancy(redis, config.redis.prefix, { credentials: config.credentials });
  const timers = { agentWaitNoticeMs: config.conversations.agentWaitNoticeMs, idleTimeoutMs: config.conversations.idleTimeoutMs };
  const connectorRecords = stores.connectors.records;
  const schedules = createConnectorSchedules(temporal.client, config.temporal.taskQueue);
  const follower = createEventFollower(redis, subscriber, config.redis.prefix);
  // Agents' private notes and their mentions: kept apart from transcripts, announced on channels of their own.
  const liveChannels = createLiveChannels(subscriber);
  const notes = createNotes(redis, config.redis.prefix);
  const notifications = createNotifications(redis, config.redis.prefix);
  const identities = createOperatorIdentities(redis, config.redis.prefix, secretBox);
  const templates = createMessageTemplates(redis, config.redis.prefix);

  const gapResults = createClusterResults(insights.contentGaps.store);
  // A new `down` becomes a content gap, as an unanswered question does in the worker.
  // A satisfaction score also marks the conversation for the search index (its `rating` filter).
  const ratings = markingSatisfaction(
    createRatings({
      redis,
      prefix: config.redis.prefix,
      records,
      transcript,
      logger,
      onRatedDown: insights.contentGaps.record,
    }),
    records,
    stores.conversations.searchChanges,
  );

  const app = createApp({
    logger,
    metrics,
    ...(tracer ? { tracer } : {}),
    redis,
    tenancy,
    ingestion,
    cleanups: createCleanupClient(temporal.client, config.temporal.taskQueue, knowledge.cleanupLists, {
      waitMs: config.cleanupWaitMs,
    }),
    reindex: createReindexClient(temporal.client, config.temporal.taskQueue),
    jobs,
    search: knowledge.search,
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
      startConversation: createWidgetConversationStart({ records, transcript, conversations, timers, started: counts.started }),
      inbox: createInbox({ redis, prefix: config.redis.prefix, records, channel }),
      ratings,
      answerBudget: stores.conversations.answerBudget,
      cannedReplies: createCannedReplies(redis, config.redis.prefix),
    },
    assignment: {
      availability: stores.conversations.availability,
      placement: createInboxPlacement({ redis, prefix: config.redis.prefix, records, tenancy }),
      inboxChanges: stores.conversations.inboxChanges,
      log: stores.conversations.assignmentLog,
      liveChannels,
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
          acknowledger: createAcknowledger({ connections: messagingConnections, graph: stores.messaging.graph, logger }),
        }),
      }),
      channel,
      allowDevelopmentMode: config.env !== 'production',
      templates,
      // Agents' images and documents, fetched as connectors fetch.
      extras: createReplyExtras({
        connections: messagingConnections,
        templates,
        media: { http: outbound, graph: createGraphMediaClient({ baseUrl: config.graphApiBaseUrl }) },
      }),
    },
    notes: {
      notes,
      writer: createNoteWriter({ notes, notifications, users: tenancy, searchChanges: stores.conversations.searchChanges }),
      notifications,
      view: createAgentNotesView({
        notes,
        noteFollower: createNoteFollower(liveChannels, notes, config.redis.prefix),
        notifications,
        notificationFollower: createNotificationFollower(liveChannels, config.redis.prefix),
      }),
    },
    conversationSearch: createConversationSearch({
      redis,
      prefix: config.redis.prefix,
      index: stores.conversations.searchIndex,
      records,
    }),
    connectors: {
      records: connectorRecords,
      setup: createConnectorSetup({
        tenancy,
        connectors: connectorRecords,
        schedules,
        maxPerTenant: config.connectors.perTenant,
      }),
      syncState: stores.connectors.syncState,
      crawlState: stores.connectors.crawlState,
      files: stores.connectors.files,
      uploads: createFileUploads({
        files: stores.connectors.files,
        staging: stores.connectors.staging,
        temporal: temporal.client,
        taskQueue: config.temporal.taskQueue,
        maxFileBytes: defaultDocumentLimits.maxBytes,
        maxFiles: maxFilesPerSource,
      }),
      schedules,
      productWebhooks: createProductWebhooks(temporal.client, config.temporal.taskQueue),
      webhookReplays: createShopWebhookReplays(redis, config.redis.prefix),
      production: config.env === 'production',
    },
    outboundEvents: { endpoints: stores.outboundEvents.endpoints, deliveries: stores.outboundEvents.deliveries },
    contentGaps: {
      results: gapResults,
      marks: createAddressedMarks({
        store: insights.contentGaps.store,
        space: spaceKey(clients.embedders.queries.space),
        changed: insights.contentGaps.clustering.changed,
        onError: (error) => logger.warn({ err: { message: (error as Error).message } }, 'content gaps not clustered again'),
      }),
    },
    streams,
    insights: {
      reports: createReports({ counters: createDayCounters(redis, config.redis.prefix), contentGaps: gapResults }),
      slaCounts: insights.slaCounts,
    },
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
        addressPerMinute: config.conversations.addressPerMinute,
        answersPerAddressPerDay: config.conversations.answersPerAddressPerDay,
        answersPerConversationPerDay: config.conversations.answersPerConversationPerDay,
        ratingsPerVisitor: config.conversations.ratingsPerVisitor,
        ratingsOperatorPerMinute: config.conversations.ratingsOperatorPerMinute,
      },
    },
  });

  return {
    app,
    metrics: registry,
    live: { streams: () => streams.size, followings: () => follower.size },
    reconnectStreams: () => streams.reconnectAll(),
    async close() {
      await Promise.allSettled([clients.close(), temporal.close()]);
    },
  };
}
