import type { Middleware } from 'koa';
import type { IngestionClient, IngestItem } from '#knowledge/ingestion-client.js';
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
  /** The largest body a route here reads (a bulk of items). */
  bodyLimitBytes: number;
}

/** The published queue estimate: 10 items per second. */
const estimatedTime = (items: number) => `${Math.ceil(items / 10)}s`;

/** The ingestion interface: items in, cleanup, and the status of each job. */
export function createIngestRouter({ tenancy, rateLimit, jobs, ingestion, bodyLimitBytes }: IngestRouterDeps) {
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
        "Answers once the item is durably queued; processing is asynchronous (see GET /ingest/jobs/{jobId}). The integrationId `help-center` is reserved for the help centre's articles (400).",
      body: ingestItem,
      responses: { 200: { description: 'Queued', schema: queuedResponse } },
    },
    async (ctx) => {
      const item = ctx.request.body;
      refuseHelpCenterItems([item], '');
      checkItemSizes([item]);
      const [knowledgeBaseId] = await targetsOf(ctx.state.apiKey.tenantId, [item.knowledgeBaseId]);
      const jobId = await ingestion.acceptOne(ctx.state.apiKey.tenantId, knowledgeBaseId!, item);
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
        '`sourceOrigin` and `keepExternalIds` are required; `knowledgeBaseId` defaults to the tenant’s default. Every source of exactly that origin whose externalId is not kept is deleted (an empty list deletes them all); answers when they are gone.',
      body: cleanupRequest,
      responses: { 200: { description: 'Deleted', schema: cleanupResponse } },
    },
    async (ctx) => {
      const { body } = ctx.request;
      if (body.sourceOrigin === helpCenterIntegrationId) throw helpCenterReserved('/sourceOrigin', 'sourceOrigin');
      checkKeepList(body.keepExternalIds);
      const tenantId = ctx.state.apiKey.tenantId;
      const [knowledgeBaseId] = await targetsOf(tenantId, [body.knowledgeBaseId]);
      ctx.body = await ingestion.cleanup({
        tenantId,
        knowledgeBaseId: knowledgeBaseId!,
        sourceOrigin: body.sourceOrigin,
        keepExternalIds: body.keepExternalIds,
      });
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
