import type { Middleware } from 'koa';
import { CleanupFailedError, type CleanupClient, type CleanupState } from '#knowledge/cleanup-client.js';
import { laneOfSingleItem, type IngestionClient, type IngestItem } from '#knowledge/ingestion-client.js';
import type { JobStore } from '#knowledge/jobs.js';
import type { Tenancy } from '#tenancy/index.js';
import { helpCenterIntegrationId } from '#articles/types.js';
import { AppError, invalidPayload, notFound } from '../errors.js';
import { requireApiKey } from '../middleware/api-key-auth.js';
import { DocumentedRouter } from '../openapi/documented-router.js';
import { ownedKnowledgeBase, tenantOr404 } from '../ownership.js';
import { checkItemSizes, checkKeepList } from './ingest-limits.js';
import {
  bulkQueuedResponse,
  bulkRequest,
  cleanupRequest,
  cleanupResponse,
  cleanupRunningResponse,
  ingestItem,
  ingestLimits,
  jobResponse,
  queuedResponse,
} from '../schemas/ingest.js';
import type { AuthenticatedState } from '../state.js';

export interface IngestRouterDeps {
  tenancy: Tenancy;
  rateLimit: Middleware<AuthenticatedState>;
  jobs: Pick<JobStore, 'get'>;
  ingestion: IngestionClient;
  cleanups: CleanupClient;
  /** The largest body a route here reads (a bulk of items). */
  bodyLimitBytes: number;
}

/** The published queue estimate: 10 items per second. */
const estimatedTime = (items: number) => `${Math.ceil(items / 10)}s`;

/** The ingestion interface: items in, cleanup, and the status of each job. */
export function createIngestRouter({ tenancy, rateLimit, jobs, ingestion, cleanups, bodyLimitBytes }: IngestRouterDeps) {
  const router = new DocumentedRouter<AuthenticatedState>(
    {
      tags: ['Ingestion'],
      security: 'apiKey',
      scope: 'iq:import',
      errors: [401, 403, 404, 413, 429, 503],
    },
    { bodyLimitBytes },
  );
  router.use(requireApiKey(tenancy, 'iq:import'), rateLimit);

  /** The knowledge base each item goes to: its own, or the tenant's default (403/404 as for any resource). */
  async function targetsOf(tenantId: string, wanted: Array<string | undefined>): Promise<string[]> {
    const tenant = await tenantOr404(tenancy, tenantId);
    const ids = wanted.map((id) => id ?? tenant.defaultKnowledgeBaseId);
    for (const id of new Set(ids)) await ownedKnowledgeBase(tenancy, tenantId, id);
    return ids;
  }

  router.post(
    '/ingest',
    {
      summary: 'Ingest one item',
      description:
        "Answers once the item is durably queued; processing is asynchronous (see GET /ingest/jobs/{jobId}). An item sent on its own is processed before any bulk call's items, unless its priority is `low`. The integrationId `help-center` is reserved for the help centre's articles (400).",
      body: ingestItem,
      responses: { 200: { description: 'Queued', schema: queuedResponse } },
    },
    async (ctx) => {
      const item = ctx.request.body;
      refuseHelpCenterItems([item], '');
      checkItemSizes([item]);
      const [knowledgeBaseId] = await targetsOf(ctx.state.apiKey.tenantId, [item.knowledgeBaseId]);
      const jobId = await ingestion.acceptOne(ctx.state.apiKey.tenantId, knowledgeBaseId!, item, laneOfSingleItem(item));
      ctx.body = { status: 'queued', jobId };
    },
  );

  router.post(
    '/ingest/bulk',
    {
      summary: 'Ingest several items',
      description: `Up to ${ingestLimits.itemsPerBulk} items per call. Answers once every item is durably queued; a pair sent twice counts once, its last version winning.`,
      body: bulkRequest,
      responses: { 200: { description: 'Queued', schema: bulkQueuedResponse } },
    },
    async (ctx) => {
      const { items } = ctx.request.body;
      if (items.length > ingestLimits.itemsPerBulk) {
        throw new AppError(
          413,
          'payload_too_large',
          `A bulk request takes at most ${ingestLimits.itemsPerBulk} items (got ${items.length}): split it.`,
        );
      }
      refuseHelpCenterItems(items, '/items');
      checkItemSizes(items);
      const targets = await targetsOf(
        ctx.state.apiKey.tenantId,
        items.map((item) => item.knowledgeBaseId),
      );
      const jobIds = await ingestion.acceptMany(
        ctx.state.apiKey.tenantId,
        items.map((item, i) => ({ item, knowledgeBaseId: targets[i]! })),
      );
      ctx.body = { status: 'queued', jobCount: jobIds.length, estimatedTime: estimatedTime(jobIds.length), jobIds };
    },
  );

  router.post(
    '/ingest/cleanup',
    {
      summary: 'Delete the sources of an origin that no longer exist',
      description:
        '`sourceOrigin` and `keepExternalIds` are required; `knowledgeBaseId` defaults to the tenant’s default. Every source of exactly that origin whose externalId is not kept is deleted (an empty list deletes them all); answers 200 when they are gone. ' +
        'Extension: a cleanup not over within `CLEANUP_WAIT_SECONDS` (60 s by default) answers 202 with its `cleanupId` and `statusUrl` (also as Location) to poll; the same request sent while it runs attaches to it. A cleanup that ended without completing: 409 `cleanup_failed` (send it again).',
      body: cleanupRequest,
      responses: {
        200: { description: 'Deleted', schema: cleanupResponse },
        202: { description: 'Still running: poll statusUrl', schema: cleanupRunningResponse },
      },
      errors: [409],
    },
    async (ctx) => {
      const { body } = ctx.request;
      if (body.sourceOrigin === helpCenterIntegrationId) throw helpCenterReserved('/sourceOrigin', 'sourceOrigin');
      checkKeepList(body.keepExternalIds);
      const tenantId = ctx.state.apiKey.tenantId;
      const [knowledgeBaseId] = await targetsOf(tenantId, [body.knowledgeBaseId]);
      answerCleanup(
        ctx,
        await cleanupOrFailed(() =>
          cleanups.run({
            tenantId,
            knowledgeBaseId: knowledgeBaseId!,
            sourceOrigin: body.sourceOrigin,
            keepExternalIds: body.keepExternalIds,
          }),
        ),
      );
    },
  );

  router.get(
    '/ingest/cleanups/{cleanupId}',
    {
      summary: 'Follow a cleanup',
      description:
        'Extension: a cleanup that answered 202. Over: 200 with the body the cleanup request answers when it finishes in time; running: 202 with its `statusUrl`; another tenant’s or unknown: 404; ended without completing: 409 `cleanup_failed`.',
      responses: {
        200: { description: 'Deleted', schema: cleanupResponse },
        202: { description: 'Still running', schema: cleanupRunningResponse },
      },
      errors: [409],
    },
    async (ctx) => {
      const state = await cleanupOrFailed(() => cleanups.status(ctx.state.apiKey.tenantId, ctx.params.cleanupId!));
      if (!state) throw notFound(`No cleanup ${ctx.params.cleanupId}.`);
      answerCleanup(ctx, state);
    },
  );

  router.get(
    '/ingest/jobs/{jobId}',
    {
      summary: 'The status of an ingestion job',
      description: 'queued, processing, searchable, skipped, metadata_updated, failed (with error) or deleted.',
      responses: { 200: { description: 'The job', schema: jobResponse } },
    },
    async (ctx) => {
      const job = await jobs.get(ctx.state.apiKey.tenantId, ctx.params.jobId!);
      if (!job) throw notFound(`No job ${ctx.params.jobId}.`);
      ctx.body = job;
    },
  );

  return router;
}

/** Seconds a client waits before asking about a running cleanup again. */
const cleanupPollSeconds = 5;

/** A cleanup over: 200 with its outcome (the published body); running: 202 with where to follow it. */
function answerCleanup(ctx: { status: number; body: unknown; set(name: string, value: string): void }, state: CleanupState) {
  if (state.state === 'completed') {
    ctx.body = state.outcome;
    return;
  }
  const statusUrl = `/ingest/cleanups/${encodeURIComponent(state.cleanupId)}`;
  ctx.status = 202;
  ctx.set('Location', statusUrl);
  ctx.set('Retry-After', String(cleanupPollSeconds));
  ctx.body = { status: 'running', cleanupId: state.cleanupId, statusUrl };
}

async function cleanupOrFailed<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof CleanupFailedError) throw new AppError(409, 'cleanup_failed', error.message);
    throw error;
  }
}

/**
 * `help-center` belongs to the help centre's articles, which feed the AI as that integration and
 * origin: an API key writing or cleaning it up would change what the AI cites as an article.
 */
function refuseHelpCenterItems(items: IngestItem[], path: string): void {
  const index = items.findIndex((item) => item.integrationId === helpCenterIntegrationId);
  if (index === -1) return;
  throw helpCenterReserved(path ? `${path}/${index}/integrationId` : '/integrationId', 'integrationId');
}

const helpCenterReserved = (path: string, field: string) =>
  invalidPayload(
    `The ${field} ${helpCenterIntegrationId} is reserved for the help centre's articles: publish articles through the help centre, or use another ${field}.`,
    [{ path, message: `must not be ${helpCenterIntegrationId}` }],
  );
