import type { ReindexClient } from '#knowledge/reindex-client.js';
import { notFound } from '../errors.js';
import { DocumentedRouter } from '../openapi/documented-router.js';
import { ownedKnowledgeBase, tenantOr404 } from '../ownership.js';
import { reindexResponse } from '../schemas/admin.js';
import type { AdminRouterDeps } from './admin-tenants.js';

const path = '/admin/tenants/{tenantId}/knowledge-bases/{knowledgeBaseId}/reindex';

/**
 * Re-indexing a knowledge base: every source still embedded in another space than the current
 * embedder's is embedded again from its own chunks, without the tenant sending anything again.
 */
export function createAdminReindexRouter({ tenancy, requireAdmin, reindex }: AdminRouterDeps & { reindex: ReindexClient }) {
  const router = new DocumentedRouter({ tags: ['Administration'], security: 'admin', errors: [401, 403, 404, 429, 503] });
  router.use(requireAdmin);

  const knowledgeBaseOf = async (params: Record<string, string | undefined>) => {
    const tenant = await tenantOr404(tenancy, params.tenantId!);
    return ownedKnowledgeBase(tenancy, tenant.id, params.knowledgeBaseId!);
  };

  router.post(
    path,
    {
      summary: 'Re-index a knowledge base in the current embedding space',
      description:
        'Starts the re-index, or answers with the one running (one per knowledge base at a time). It embeds again, from their ' +
        'stored chunks, the sources embedded by another model: search finds each again once it is re-embedded, and its job ' +
        'status stays `searchable`. Ingestion goes on beside it. ' +
        'No body. A knowledge base of another tenant: 403.',
      responses: { 202: { description: 'The re-index started or running, with its progress', schema: reindexResponse } },
      errors: [400],
    },
    async (ctx) => {
      const knowledgeBase = await knowledgeBaseOf(ctx.params);
      ctx.status = 202;
      ctx.body = await reindex.start(knowledgeBase.tenantId, knowledgeBase.id);
    },
  );

  router.get(
    path,
    {
      summary: "A knowledge base's re-index and its progress",
      description: 'The latest re-index, running or ended. 404 when none was ever started.',
      responses: { 200: { description: 'The re-index', schema: reindexResponse } },
    },
    async (ctx) => {
      const knowledgeBase = await knowledgeBaseOf(ctx.params);
      const status = await reindex.status(knowledgeBase.tenantId, knowledgeBase.id);
      if (!status) throw notFound(`No re-index of knowledge base ${knowledgeBase.id} was started.`);
      ctx.body = status;
    },
  );

  return router;
}
