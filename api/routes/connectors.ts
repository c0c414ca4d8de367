import { ConnectorLimitError, type ConnectorSetup } from '#connectors/connect.js';
import type { ConnectorRecords, Connector } from '#connectors/records.js';
import type { ConnectorSchedules } from '#connectors/schedules.js';
import { sourceUrlProblem } from '#connectors/source-url.js';
import type { SyncState } from '#connectors/sync-state.js';
import type { CrawlState } from '#connectors/website/crawl-state.js';
import { fileStatuses, type FileRecords } from '#connectors/files/file-records.js';
import { scopeRulesProblem } from '#connectors/website/scope.js';
import { originsOf } from '#connectors/website/site.js';
import type { Tenancy } from '#tenancy/index.js';
import { conflict, invalidPayload, limitReached } from '../errors.js';
import { DocumentedRouter } from '../openapi/documented-router.js';
import { ownedBy, ownedKnowledgeBase, tenantOr404 } from '../ownership.js';
import {
  connectorResponse,
  createCmsConnectorRequest,
  createFilesConnectorRequest,
  createShopConnectorRequest,
  createWebsiteConnectorRequest,
  syncRequest,
  syncStartedResponse,
} from '../schemas/connectors.js';
import type { UserState } from '../state.js';
import type { UserGuard } from '../middleware/token-budgets.js';
import { listOf } from '../schemas/admin.js';

export interface ConnectorsRouterDeps {
  tenancy: Pick<Tenancy, 'getTenant' | 'getKnowledgeBase'>;
  /** Authenticates the user token, within its budgets (`api/middleware/token-budgets.ts`). */
  requireUser: UserGuard;
  connectors: Pick<ConnectorRecords, 'get' | 'listForTenant'>;
  setup: ConnectorSetup;
  syncState: Pick<SyncState, 'status' | 'requestFullSync' | 'confirmDeletions'>;
  crawlState: Pick<CrawlState, 'counts' | 'failures'>;
  schedules: Pick<ConnectorSchedules, 'state' | 'trigger'>;
  /** Files sources: their files (counted by status in the status), and the limits of an upload. */
  files: Pick<FileRecords, 'list'>;
  fileLimits: { maxFileBytes: number; maxFiles: number };
  /** `{base_url}`: shop webhook URLs start with it. */
  publicBaseUrl: string;
  /** In production a connector reaches public https addresses only. */
  production: boolean;
}

/**
 * Defaults: a shop is mirrored every 6 hours (webhooks carry the changes in between); a site is asked
 * for changes every 15 minutes; a website is crawled daily, gently (docs/sources.md).
 */
const defaults = {
  shop: { syncEveryMinutes: 360 },
  cms: { syncEveryMinutes: 15, fullSyncEveryHours: 24 },
  website: { syncEveryMinutes: 1440, maxPages: 10_000, concurrency: 2, requestsPerSecond: 2 },
} as const;

/**
 * The built-in connectors, as the dashboard sets them up: a tenant admin connects a shop or a site;
 * the service gives the connector an API key of its own and a durable schedule, and the connector
 * then ingests through the public ingestion API like any client. Role admin.
 */
export function createConnectorsRouter(deps: ConnectorsRouterDeps) {
  const { tenancy, requireUser, connectors, setup, syncState, crawlState, schedules } = deps;
  const router = new DocumentedRouter<UserState>({ tags: ['Connectors'], security: 'userToken', errors: [401, 403, 429, 503] });
  router.use(requireUser(['admin']));

  async function knowledgeBaseFor(tenantId: string, knowledgeBaseId: string | undefined): Promise<string> {
    if (knowledgeBaseId) return (await ownedKnowledgeBase(tenancy, tenantId, knowledgeBaseId)).id;
    return (await tenantOr404(tenancy, tenantId)).defaultKnowledgeBaseId;
  }

  async function present(connector: Connector) {
    // The watermark (where the next incremental sync starts reading) stays inside: it is how a sync works, not what it did.
    const [{ watermark: _watermark, ...status }, schedule] = await Promise.all([
      syncState.status(connector.id),
      schedules.state(connector),
    ]);
    const { id, kind, name, knowledgeBaseId, integrationId, syncEveryMinutes, createdAt } = connector;
    return {
      id,
      type: kind,
      name,
      knowledgeBaseId,
      integrationId,
      syncEveryMinutes,
      ...settingsOf(connector),
      ...(connector.kind === 'files' ? { files: await fileCounts(connector.id) } : {}),
      sync: {
        state: status.running || schedule.runningWorkflowIds.length > 0 ? 'running' : 'idle',
        ...status,
        ...(connector.kind === 'website' ? await crawlOf(connector.id, status) : {}),
        nextSyncAt: schedule.nextSyncAt,
      },
      createdAt,
    };
  }

  function settingsOf(connector: Connector) {
    switch (connector.kind) {
      case 'shop':
        return { data: connector.shop, webhookUrl: `${deps.publicBaseUrl}/webhooks/shop/${connector.webhookPath}` };
      case 'cms':
        return { fullSyncEveryHours: connector.fullSyncEveryHours, data: connector.cms };
      case 'website':
        return { data: connector.website };
      case 'files':
        return { data: deps.fileLimits };
    }
  }

  /** A files source's files by status. */
  async function fileCounts(connectorId: string) {
    const counts = Object.fromEntries(fileStatuses.map((status) => [status, 0])) as Record<(typeof fileStatuses)[number], number>;
    for (const file of await deps.files.list(connectorId)) counts[file.status] += 1;
    return counts;
  }

  /** A crawl's page counts so far (the running one), and the failures of the running crawl or else the last. */
  async function crawlOf(connectorId: string, status: Awaited<ReturnType<SyncState['status']>>) {
    const runId = status.running?.runId ?? status.last?.runId;
    if (!runId) return {};
    const [pages, failures] = await Promise.all([
      status.running ? crawlState.counts(connectorId, runId) : undefined,
      crawlState.failures(connectorId, runId),
    ]);
    return { ...(pages && status.running ? { running: { ...status.running, pages } } : {}), failures };
  }

  /** `setup.connect`, with a tenant at its limit answered 409 `connector_limit_reached`. */
  const connect: ConnectorSetup['connect'] = async (...args) => {
    try {
      return await setup.connect(...args);
    } catch (error) {
      if (error instanceof ConnectorLimitError) throw limitReached('connector_limit_reached', error.message);
      throw error;
    }
  };

  const owned = async (ctx: { params: Record<string, string>; state: UserState }) =>
    ownedBy(await connectors.get(ctx.params.connectorId!), ctx.state.user.tenantId, `connector ${ctx.params.connectorId}`);

  router.post(
    '/connectors/shop',
    {
      summary: 'Connect an online shop',
      description:
        "Mirrors the shop's active products into a knowledge base as `PRODUCT` items: a full sync at once and every `syncEveryMinutes` (default 360), " +
        "which also removes deleted products; in between, subscribe the shop's `products/create` and `products/update` webhooks to `webhookUrl`. " +
        'The access token and webhook secret are encrypted at rest and never returned. ' +
        'A tenant has at most `CONNECTORS_PER_TENANT` connectors (default 20): one more is answered 409 `connector_limit_reached`.',
      body: createShopConnectorRequest,
      responses: { 201: { description: 'The connector; its first sync has started', schema: connectorResponse } },
      errors: [400, 404, 409],
    },
    async (ctx) => {
      const { tenantId } = ctx.state.user;
      const { body } = ctx.request;
      checkSourceUrl(body.data.adminUrl, '/data/adminUrl', deps.production);
      const { accessToken, webhookSecret, ...shop } = body.data;
      const connector = await connect(
        tenantId,
        {
          kind: 'shop',
          name: body.name,
          knowledgeBaseId: await knowledgeBaseFor(tenantId, body.knowledgeBaseId),
          syncEveryMinutes: body.syncEveryMinutes ?? defaults.shop.syncEveryMinutes,
          shop,
        },
        { accessToken, webhookSecret },
      );
      ctx.status = 201;
      ctx.body = await present(connector);
    },
  );

  router.post(
    '/connectors/cms',
    {
      summary: 'Connect a content-management site',
      description:
        "Mirrors the site's published posts (`ARTICLE`) and pages (`PAGE`) into a knowledge base: every `syncEveryMinutes` (default 15) what changed since the last sync, " +
        'and every `fullSyncEveryHours` (default 24) everything, removing what is no longer published. The first sync, at once, is full. ' +
        '`username` and `applicationPassword` go together; the password is encrypted at rest and never returned. ' +
        'A tenant has at most `CONNECTORS_PER_TENANT` connectors (default 20): one more is answered 409 `connector_limit_reached`.',
      body: createCmsConnectorRequest,
      responses: { 201: { description: 'The connector; its first sync has started', schema: connectorResponse } },
      errors: [400, 404, 409],
    },
    async (ctx) => {
      const { tenantId } = ctx.state.user;
      const { body } = ctx.request;
      checkSourceUrl(body.data.siteUrl, '/data/siteUrl', deps.production);
      const { applicationPassword, username, ...cms } = body.data;
      if ((username === undefined) !== (applicationPassword === undefined)) {
        throw invalidPayload('username and applicationPassword go together.', [
          {
            path: username === undefined ? '/data/username' : '/data/applicationPassword',
            message: 'is required with the other',
          },
        ]);
      }
      const connector = await connect(
        tenantId,
        {
          kind: 'cms',
          name: body.name,
          knowledgeBaseId: await knowledgeBaseFor(tenantId, body.knowledgeBaseId),
          syncEveryMinutes: body.syncEveryMinutes ?? defaults.cms.syncEveryMinutes,
          fullSyncEveryHours: body.fullSyncEveryHours ?? defaults.cms.fullSyncEveryHours,
          cms: { ...cms, username: username ?? null },
        },
        applicationPassword ? { applicationPassword } : {},
      );
      ctx.status = 201;
      ctx.body = await present(connector);
    },
  );

  router.post(
    '/connectors/website',
    {
      summary: 'Connect a website',
      description:
        'Crawls a website into a knowledge base: from `startUrls` and the pages of `sitemaps`, following links within the hosts of those ' +
        'addresses (and `include`/`exclude`), at most `maxPages` (default 10,000) pages. Each page is read for its main content and becomes ' +
        'one `PAGE` item per section, titled "Page — Section" and linked to the section\'s anchor; linked PDF and Word files are read too. ' +
        'The crawler obeys robots.txt as `KbAssistantBot` (Crawl-delay included) and asks each host at most `concurrency` requests at once ' +
        'and `requestsPerSecond` a second (defaults 2 and 2). The first crawl starts at once, then every `syncEveryMinutes` (default 1440): ' +
        'an unchanged page costs a 304, a page gone leaves the knowledge base; a crawl that finds no page, or less than half of what the last one ' +
        'kept, deletes nothing and fails with the reason. ' +
        'A tenant has at most `CONNECTORS_PER_TENANT` connectors (default 20): one more is answered 409 `connector_limit_reached`.',
      body: createWebsiteConnectorRequest,
      responses: { 201: { description: 'The connector; its first crawl has started', schema: connectorResponse } },
      errors: [400, 404, 409],
    },
    async (ctx) => {
      const { tenantId } = ctx.state.user;
      const { body } = ctx.request;
      const { startUrls = [], sitemaps = [], include = [], exclude = [] } = body.data;
      if (startUrls.length + sitemaps.length === 0) {
        throw invalidPayload('A website needs a start URL or a sitemap.', [
          { path: '/data/startUrls', message: 'must not be empty without sitemaps' },
        ]);
      }
      [...startUrls, ...sitemaps].forEach((address, i) =>
        checkSourceUrl(
          address,
          i < startUrls.length ? `/data/startUrls/${i}` : `/data/sitemaps/${i - startUrls.length}`,
          deps.production,
        ),
      );
      const website = {
        startUrls,
        sitemaps,
        include,
        exclude,
        maxPages: body.data.maxPages ?? defaults.website.maxPages,
        concurrency: body.data.concurrency ?? defaults.website.concurrency,
        requestsPerSecond: body.data.requestsPerSecond ?? defaults.website.requestsPerSecond,
      };
      const hosts = originsOf(website).map((origin) => new URL(origin).host);
      const problem = scopeRulesProblem({ hosts, include, exclude });
      if (problem) throw invalidPayload(`The scope ${problem}.`, [{ path: '/data', message: problem }]);
      const connector = await connect(
        tenantId,
        {
          kind: 'website',
          name: body.name,
          knowledgeBaseId: await knowledgeBaseFor(tenantId, body.knowledgeBaseId),
          syncEveryMinutes: body.syncEveryMinutes ?? defaults.website.syncEveryMinutes,
          website,
        },
        {},
      );
      ctx.status = 201;
      ctx.body = await present(connector);
    },
  );

  router.post(
    '/connectors/files',
    {
      summary: 'Add a files source',
      description:
        'A source of files uploaded by hand into a knowledge base (`POST /connectors/{connectorId}/files`): PDF, Word (.docx), HTML, ' +
        'Markdown and text, each read into one `PAGE` item per section (per page of a PDF). It polls nothing, so it has no schedule. ' +
        'A tenant has at most `CONNECTORS_PER_TENANT` connectors (default 20): one more is answered 409 `connector_limit_reached`.',
      body: createFilesConnectorRequest,
      responses: { 201: { description: 'The files source', schema: connectorResponse } },
      errors: [400, 404, 409],
    },
    async (ctx) => {
      const { tenantId } = ctx.state.user;
      const { body } = ctx.request;
      const connector = await connect(
        tenantId,
        { kind: 'files', name: body.name, knowledgeBaseId: await knowledgeBaseFor(tenantId, body.knowledgeBaseId), syncEveryMinutes: null },
        {},
      );
      ctx.status = 201;
      ctx.body = await present(connector);
    },
  );

  router.get(
    '/connectors',
    {
      summary: "The tenant's connectors",
      responses: { 200: { description: 'Oldest first', schema: listOf('connectors', connectorResponse) } },
    },
    async (ctx) => {
      const all = await connectors.listForTenant(ctx.state.user.tenantId);
      ctx.body = { connectors: await Promise.all(all.map(present)) };
    },
  );

  router.get(
    '/connectors/{connectorId}',
    {
      summary: 'A connector and its syncs',
      description: "The running sync, the last one's outcome and the next scheduled time. Another tenant's: 403.",
      responses: { 200: { description: 'The connector', schema: connectorResponse } },
      errors: [404],
    },
    async (ctx) => {
      ctx.body = await present(await owned(ctx));
    },
  );

  router.post(
    '/connectors/{connectorId}/sync',
    {
      summary: 'Sync now',
      description:
        'Starts a sync, or queues one to follow the sync running. `full: true` makes a CMS sync a full one; `confirmDeletions: true` lets a ' +
        "website's next crawl delete whatever it no longer finds (more than half of what the last crawl kept is refused otherwise). The body may be left out.",
      body: syncRequest,
      bodyOptional: true,
      responses: { 202: { description: 'A sync is on its way', schema: syncStartedResponse } },
      errors: [400, 404, 409],
    },
    async (ctx) => {
      const connector = await owned(ctx);
      if (connector.kind === 'files') {
        throw conflict('A files source has nothing to sync: its files are taken in as they are uploaded.');
      }
      if (ctx.request.body.full && connector.kind === 'cms') {
        await syncState.requestFullSync(connector.id);
      }
      if (ctx.request.body.confirmDeletions && connector.kind === 'website') {
        await syncState.confirmDeletions(connector.id);
      }
      await schedules.trigger(connector);
      ctx.status = 202;
      ctx.body = { status: 'started' };
    },
  );

  router.delete(
    '/connectors/{connectorId}',
    {
      summary: 'Remove a connector',
      description:
        'Stops its schedule and any sync running, revokes its API key and forgets its secrets. What it ingested stays in the knowledge base ' +
        '(remove it with `POST /ingest/cleanup` for its `integrationId` as `sourceOrigin` and no ids to keep).',
      responses: { 204: { description: 'Removed' } },
      errors: [404],
    },
    async (ctx) => {
      await setup.disconnect(await owned(ctx));
      ctx.status = 204;
    },
  );

  return router;
}

function checkSourceUrl(address: string, path: string, production: boolean): void {
  const problem = sourceUrlProblem(address, production);
  if (problem) throw invalidPayload(`The address ${problem}.`, [{ path, message: problem }]);
}
