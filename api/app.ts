import type { Tracer } from '@opentelemetry/api';
import cors from '@koa/cors';
import Koa, { type Middleware } from 'koa';
import type { DependencyChecks } from '#platform/dependency-health.js';
import type { Logger } from '#platform/logger.js';
import type { RedisClient } from '#platform/redis.js';
import type { CleanupClient } from '#knowledge/cleanup-client.js';
import type { IngestionClient } from '#knowledge/ingestion-client.js';
import type { JobStore } from '#knowledge/jobs.js';
import type { KnowledgeSearch } from '#knowledge/search.js';
import type { ReindexClient } from '#knowledge/reindex-client.js';
import type { EventFollower } from '#conversations/events.js';
import type { Inbox } from '#conversations/inbox.js';
import type { CannedReplies } from '#conversations/canned-replies.js';
import type { ConversationRecords } from '#conversations/records.js';
import type { StartWidgetConversation } from '#conversations/start.js';
import type { VerifiedVisitors } from '#conversations/verified-visitors.js';
import type { VisitorIdentity } from '#conversations/visitor-identity.js';
import type { OperatorIdentities } from '#tenancy/operator-identity.js';
import type { Transcript } from '#conversations/transcript.js';
import type { Ratings } from '#insights/ratings.js';
import type { ConversationClient } from '#conversations/workflow-client.js';
import type { AnswerBudget } from '#conversations/answer-budget.js';
import type { ConversationTimers } from '#workflows/conversations/types.js';
import type { ArticleFeed } from '#articles/ai-feed.js';
import type { ArticleSearch } from '#articles/article-search.js';
import type { QuestionSearch } from '#articles/question-search.js';
import type { ArticleStore } from '#articles/store.js';
import type { Tenancy } from '#tenancy/index.js';
import type { MessagingConnections } from '#messaging/connections.js';
import type { Inbound } from '#messaging/inbound.js';
import type { ChannelState } from '#messaging/channel-state.js';
import type { MessageTemplates } from '#messaging/templates.js';
import type { ConnectorSetup } from '#connectors/connect.js';
import type { ConnectorRecords } from '#connectors/records.js';
import type { ConnectorSchedules } from '#connectors/schedules.js';
import type { ProductWebhooks } from '#connectors/product-webhooks.js';
import type { SyncState } from '#connectors/sync-state.js';
import type { CrawlState } from '#connectors/website/crawl-state.js';
import type { FileRecords } from '#connectors/files/file-records.js';
import type { FileUploads } from '#connectors/files/file-uploads.js';
import type { Reports } from '#insights/reports.js';
import type { ShopWebhookReplays } from '#connectors/shop/webhook-replays.js';
import { errorHandler } from './middleware/error-handler.js';
import { httpMetrics } from './middleware/http-metrics.js';
import { traceRequests } from './middleware/trace-requests.js';
import type { ApiMetrics } from './metrics.js';
import { chatRateLimits, type ChatBudgets } from './middleware/chat-rate-limits.js';
import { tokenGuards, type TokenBudgets } from './middleware/token-budgets.js';
import { rateLimitPerKey } from './middleware/rate-limit.js';
import { requestContext } from './middleware/request-context.js';
import { secureHeaders } from './middleware/secure-headers.js';
import { createAgentRouter, type AgentAssignmentDeps } from './routes/agent/routes.js';
import { createAssignmentRouter } from './routes/agent/assignment.js';
import { createTeamsRouter } from './routes/teams.js';
import { createInsightsSlaRouter } from './routes/insights-sla.js';
import type { SlaCounts } from '#insights/sla-counts.js';
import { createCannedRepliesRouter } from './routes/agent/canned-replies.js';
import { createAgentNotesRouter, type AgentNotesRouterDeps } from './routes/agent/notes.js';
import type { AgentNotesView } from './routes/agent/notes-live.js';
import type { ReplyExtras } from './routes/agent/reply-extras.js';
import { createAgentPageRouter } from './routes/agent/page.js';
import { createConversationSearchRouter, type ConversationSearchRouterDeps } from './routes/agent/search.js';
import { createAdminApiKeysRouter } from './routes/admin-api-keys.js';
import { createAdminArticlesRouter } from './routes/articles/admin.js';
import { createArticleQuestionsRouter } from './routes/articles/questions.js';
import { createArticlesRouter } from './routes/articles/public.js';
import { createHelpCentreRouter, helpCentrePolicy } from './routes/help-centre.js';
import { errorPage } from './help-centre/pages.js';
import { createAdminOperatorsRouter } from './routes/admin-operators.js';
import { createAdminTenantsRouter } from './routes/admin-tenants.js';
import { createAdminUsersRouter } from './routes/admin-users.js';
import { createAdminSecretsRouter } from './routes/admin-secrets.js';
import { createAdminReindexRouter } from './routes/admin-reindex.js';
import { createChatRouter, type AnswerShares } from './routes/chat.js';
import { createChatFeedbackRouter } from './routes/chat-feedback.js';
import { createConnectorsRouter } from './routes/connectors.js';
import { createConnectorFilesRouter } from './routes/connector-files.js';
import { createHealthRouter } from './routes/health.js';
import { createIngestRouter } from './routes/ingest.js';
import { createMessagingConnectionsRouter } from './routes/messaging-connections.js';
import { createOperatorIdentityRouter } from './routes/operator-identity.js';
import { createInsightsOperatorsRouter } from './routes/insights-operators.js';
import { createMessagingTemplatesRouter } from './routes/messaging-templates.js';
import { createEventEndpointsRouter } from './routes/event-endpoints.js';
import { createInsightsReportsRouter } from './routes/insights-reports.js';
import { eventWebhooks } from './schemas/event-endpoints.js';
import type { DeliveryLog } from '#outbound-events/deliveries.js';
import type { EventEndpoints } from '#outbound-events/endpoints.js';
import { createKnowledgeBasesRouter } from './routes/knowledge-bases.js';
import { createContentGapsRouter, type ContentGapsRouterDeps } from './routes/insights-content-gaps.js';
import { createOpenApiRouter } from './routes/openapi.js';
import { createShopWebhooksRouter } from './routes/shop-webhooks.js';
import { createMessagingWebhooksRouter } from './routes/messaging-webhooks.js';
import type { EventStreams } from './server-sent-events.js';
import type { StreamsConfig } from '#platform/config.js';
import type { ApiState } from './state.js';

export interface AppDeps {
  logger: Logger;
  /** The recorders of the process's metrics (`api/metrics.ts`). */
  metrics: ApiMetrics;
  /** Present when the process is traced: each request in a span. */
  tracer?: Tracer;
  redis: RedisClient;
  tenancy: Tenancy;
  ingestion: IngestionClient;
  cleanups: CleanupClient;
  /** Re-indexes of knowledge bases, started and followed through the admin routes. */
  reindex: ReindexClient;
  jobs: JobStore;
  search: KnowledgeSearch;
  checks: DependencyChecks;
  articles: {
    store: ArticleStore;
    feed: ArticleFeed;
    articleSearch: ArticleSearch;
    questionSearch: QuestionSearch;
  };
  chat: {
    records: ConversationRecords;
    transcript: Transcript;
    follower: EventFollower;
    conversations: ConversationClient;
    startConversation: StartWidgetConversation;
    /** What the agent inbox lists. */
    inbox: Inbox;
    /** Answer ratings and satisfaction scores (docs/insights.md). */
    ratings: Ratings;
    /** Each operator's AI answers per UTC day. */
    answerBudget: Pick<AnswerBudget, 'spend' | 'spendShare'>;
    /** Agents' saved replies, shared or personal (docs/agent-inbox.md, "Canned replies"). */
    cannedReplies: CannedReplies;
  };
  /** Teams and assignment (docs/agent-inbox.md): agents' availability, the inbox's indexes, assignments' history, live nudges. */
  assignment: AgentAssignmentDeps;
  /** Verified visitor identity: operators' identity secrets, tokens, sessions (docs/widget.md). */
  identity: {
    identities: OperatorIdentities;
    visitorIdentity: VisitorIdentity;
    verifiedVisitors: VerifiedVisitors;
  };
  messaging: {
    connections: MessagingConnections;
    /** Takes verified webhook deliveries in: customers' messages to their conversations, statuses. */
    inbound: Inbound;
    /** The channel's state the agent inbox shows: the 24-hour window and delivery problems. */
    channel: Pick<ChannelState, 'windowOpenUntil' | 'problemOf' | 'deliveriesOf'>;
    /** Outside production only: connections that accept unsigned deliveries. */
    allowDevelopmentMode: boolean;
    /** The business's approved templates, per connection. */
    templates: MessageTemplates;
    /** What agents may send besides text: the approved templates, and files fetched by the outbound client. */
    extras: ReplyExtras;
  };
  /** Agents' private notes, the notifications their mentions make, and how the agent routes show both. */
  notes: Omit<AgentNotesRouterDeps, 'requireUser' | 'records'> & { view: AgentNotesView };
  /** The agents' search over their tenant's conversations (docs/agent-inbox.md, "Conversation search"). */
  conversationSearch: ConversationSearchRouterDeps['search'];
  connectors: {
    records: ConnectorRecords;
    setup: ConnectorSetup;
    syncState: SyncState;
    /** Website crawls' counts and failures, for the connectors' status. */
    crawlState: CrawlState;
    /** Files sources: their files, and the uploads taken to them. */
    files: FileRecords;
    uploads: FileUploads;
    schedules: ConnectorSchedules;
    /** Product webhooks handed to workflows. */
    productWebhooks: ProductWebhooks;
    /** The shop's webhook deliveries taken in already: a replay is not taken in twice. */
    webhookReplays: ShopWebhookReplays;
    /** In production, connectors reach public https addresses only. */
    production: boolean;
  };
  /** Tenants' endpoints for signed outbound events, and their recent deliveries. */
  outboundEvents: { endpoints: EventEndpoints; deliveries: DeliveryLog };
  /** The content gaps' clusters and the owners' marks on them (docs/insights.md). */
  contentGaps: ContentGapsRouterDeps['contentGaps'];
  /** Every event stream of the process, and what bounds them. */
  streams: EventStreams;
  /** What the owners' reports read: the day counters, and the content-gap clusters (docs/insights.md). */
  /** The insights' reports, and the service-level outcomes per team and agent. */
  insights: { reports: Reports; slaCounts: Pick<SlaCounts, 'report'> };
  settings: {
    streams: StreamsConfig;
    adminToken: string;
    redisPrefix: string;
    bodyLimitBytes: number;
    rateLimitPerMinute: number;
    /** Per-address budgets of the hosted help centre's pages and votes. */
    helpCentre: { pagesPerMinute: number; feedbackPerAddress: number };
    /** Budgets of the routes behind the admin token and user tokens. */
    tokens: Omit<TokenBudgets, 'prefix'>;
    publicBaseUrl: string;
    version: string;
    /** Proxies in front of the API that each append to X-Forwarded-For: 0 trusts no header. */
    trustedProxyHops: number;
    chat: Omit<ChatBudgets, 'prefix'> &
      AnswerShares & {
        timers: ConversationTimers;
        replyTimeoutMs: number;
      };
  };
}

/** The REST API. The order of the middleware below is the order every request goes through. */
export function createApp({
  logger,
  metrics,
  tracer,
  redis,
  tenancy,
  ingestion,
  cleanups,
  reindex,
  jobs,
  search,
  checks,
  articles,
  chat,
  assignment,
  identity,
  messaging,
  notes,
  conversationSearch,
  connectors,
  outboundEvents,
  contentGaps,
  streams,
  insights,
  settings,
}: AppDeps): Koa<ApiState> {
  // The client address (ctx.ip) is the X-Forwarded-For entry as many hops from the right as there
  // are proxies we run: what is left of it was written by the client and proves nothing.
  const hops = settings.trustedProxyHops;
  const app = new Koa<ApiState>({ proxy: hops > 0, maxIpsCount: hops });
  app.on('error', (error: Error & { code?: string; headerSent?: boolean }, ctx?: Koa.Context) => {
    // A visitor closing an event stream is how those streams end, and a client that hangs up after
    // its answer went out (a refusal sent before its large body was read) is gone: neither is ours.
    if (error.code === 'ERR_STREAM_PREMATURE_CLOSE') return;
    if (error.code === 'ECONNRESET' && error.headerSent) return;
    logger.error({ err: error, requestId: ctx?.state?.requestId }, 'unexpected error');
  });

  const rateLimit = rateLimitPerKey(redis, { prefix: settings.redisPrefix, perMinute: settings.rateLimitPerMinute });
  const { requireAdmin, requireUser } = tokenGuards(redis, tenancy, settings.adminToken, {
    prefix: settings.redisPrefix,
    ...settings.tokens,
  });
  const admin = { tenancy, requireAdmin };
  const widgetBudgets = chatRateLimits(redis, { prefix: settings.redisPrefix, ...settings.chat });
  const routers = [
    createHealthRouter({ checks, version: settings.version, logger }),
    createAdminTenantsRouter(admin),
    createAdminApiKeysRouter(admin),
    createAdminOperatorsRouter(admin),
    createAdminUsersRouter(admin),
    createAdminReindexRouter({ ...admin, reindex }),
    createAdminSecretsRouter({
      requireAdmin,
      stores: [
        { kind: 'messaging-connection', resealAll: () => messaging.connections.resealAll() },
        { kind: 'connector', resealAll: () => connectors.records.resealAll() },
        { kind: 'operator-identity', resealAll: () => identity.identities.resealAll() },
        { kind: 'event-endpoint', resealAll: () => outboundEvents.endpoints.resealAll() },
      ],
    }),
    createAdminArticlesRouter({ ...admin, articles: articles.store, feed: articles.feed }),
    // Questions first: the articles router's `{publicationId}` would take `questions`.
    createArticleQuestionsRouter({ tenancy, rateLimit, articles: articles.store, questionSearch: articles.questionSearch }),
    createArticlesRouter({ tenancy, rateLimit, articles: articles.store, articleSearch: articles.articleSearch }),
    createHelpCentreRouter({
      tenancy,
      articles: articles.store,
      articleSearch: articles.articleSearch,
      redis,
      settings: { redisPrefix: settings.redisPrefix, ...settings.helpCentre },
    }),
    createKnowledgeBasesRouter({ tenancy, rateLimit, search }),
    createIngestRouter({ tenancy, rateLimit, jobs, ingestion, cleanups, bodyLimitBytes: settings.bodyLimitBytes }),
    createChatRouter({
      tenancy,
      ...chat,
      identity,
      rateLimits: widgetBudgets,
      settings: settings.chat,
      streams,
      streamCaps: settings.streams,
    }),
    createChatFeedbackRouter({ tenancy, records: chat.records, identity, rateLimits: widgetBudgets, ratings: chat.ratings }),
    createMessagingConnectionsRouter({
      tenancy,
      requireUser,
      connections: messaging.connections,
      allowDevelopmentMode: messaging.allowDevelopmentMode,
      publicBaseUrl: settings.publicBaseUrl,
    }),
    createOperatorIdentityRouter({ tenancy, requireUser, identities: identity.identities }),
    createInsightsOperatorsRouter({ tenancy, requireUser }),
    createMessagingTemplatesRouter({ requireUser, connections: messaging.connections, templates: messaging.templates }),
    createEventEndpointsRouter({
      requireUser,
      endpoints: outboundEvents.endpoints,
      deliveries: outboundEvents.deliveries,
      production: connectors.production,
    }),
    createInsightsReportsRouter({ tenancy, requireUser, reports: insights.reports }),
    createMessagingWebhooksRouter({
      connections: messaging.connections,
      inbound: messaging.inbound,
      allowDevelopmentMode: messaging.allowDevelopmentMode,
      metrics: metrics.webhooks,
    }),
    createConnectorsRouter({
      tenancy,
      requireUser,
      connectors: connectors.records,
      setup: connectors.setup,
      syncState: connectors.syncState,
      crawlState: connectors.crawlState,
      schedules: connectors.schedules,
      files: connectors.files,
      fileLimits: connectors.uploads.limits,
      publicBaseUrl: settings.publicBaseUrl,
      production: connectors.production,
    }),
    createConnectorFilesRouter({
      requireUser,
      connectors: connectors.records,
      files: connectors.files,
      uploads: connectors.uploads,
      observe: metrics.uploads,
    }),
    createShopWebhooksRouter({
      connectors: connectors.records,
      productWebhooks: connectors.productWebhooks,
      replays: connectors.webhookReplays,
    }),
    createAgentRouter({
      requireUser,
      tenancy,
      ...chat,
      channel: messaging.channel,
      extras: messaging.extras,
      notes: notes.view,
      assignment,
      streams,
      streamSettings: settings.streams,
    }),
    createAssignmentRouter({ requireUser, tenancy, ...chat, ...assignment, channel: messaging.channel }),
    createTeamsRouter({ tenancy, requireUser }),
    createInsightsSlaRouter({ requireUser, slaCounts: insights.slaCounts }),
    createAgentNotesRouter({ requireUser, records: chat.records, ...notes }),
    createConversationSearchRouter({ requireUser, search: conversationSearch, records: chat.records, inbox: chat.inbox }),
    createCannedRepliesRouter({ requireUser, tenancy, ...chat, channel: messaging.channel }),
    createAgentPageRouter(),
    createContentGapsRouter({ tenancy, requireUser, contentGaps }),
  ];
  routers.push(
    createOpenApiRouter(routers, { version: settings.version, serverUrl: settings.publicBaseUrl, webhooks: eventWebhooks() }),
  );

  app.use(requestContext(logger));
  if (tracer) app.use(traceRequests(tracer));
  app.use(httpMetrics(metrics.http));
  app.use(
    errorHandler(metrics.observeError, [
      { under: '/help/', render: errorPage, headers: { 'Content-Security-Policy': helpCentrePolicy } },
    ]),
  );
  app.use(onlyUnder('/chat/', widgetCors()));
  app.use(secureHeaders());
  // No body parser here: each route that takes a JSON body parses it after its router's authentication,
  // within its router's limit (`DocumentedRouter`); webhook deliveries read their exact bytes themselves.
  for (const router of routers) router.middleware().forEach((middleware) => app.use(middleware));
  return app;
}

/**
 * The widget calls the chat routes from any page: the browser may send them (CORS), and the
 * operator's allowed domains, checked on each request, decide what is answered.
 */
function widgetCors(): Middleware {
  return cors({
    origin: (ctx) => ctx.get('origin') || '*',
    allowMethods: ['GET', 'POST', 'PUT'],
    allowHeaders: ['content-type', 'x-operator-key', 'x-visitor-token', 'last-event-id', 'x-request-id'],
    exposeHeaders: ['retry-after', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'x-request-id'],
    maxAge: 600,
  });
}

function onlyUnder(prefix: string, middleware: Middleware): Middleware {
  return (ctx, next) => (ctx.path.startsWith(prefix) ? middleware(ctx, next) : next());
}
