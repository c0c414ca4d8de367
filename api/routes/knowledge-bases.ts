import type { KnowledgeSearch } from '#knowledge/search.js';
import type { Tenancy } from '#tenancy/index.js';
import type { Middleware } from 'koa';
import { requireApiKey } from '../middleware/api-key-auth.js';
import { DocumentedRouter } from '../openapi/documented-router.js';
import { ownedKnowledgeBase, tenantOr404 } from '../ownership.js';
import { presentKnowledgeBase } from '../presenters.js';
import { knowledgeBaseResponse, listOf } from '../schemas/admin.js';
import { searchQuery, searchResponse } from '../schemas/ingest.js';
import type { AuthenticatedState } from '../state.js';

export interface KnowledgeBasesRouterDeps {
  tenancy: Tenancy;
  rateLimit: Middleware<AuthenticatedState>;
  search: KnowledgeSearch;
}

/** The knowledge bases of the key's tenant, so a connector can find its target without the dashboard. */
export function createKnowledgeBasesRouter({ tenancy, rateLimit, search }: KnowledgeBasesRouterDeps) {
  const router = new DocumentedRouter<AuthenticatedState>({
    tags: ['Knowledge bases'],
    security: 'apiKey',
    scope: 'iq:read',
    errors: [401, 403, 429, 503],
  });
  router.use(requireApiKey(tenancy, 'iq:read'), rateLimit);

  router.get(
    '/knowledge-bases',
    {
      summary: "List the tenant's knowledge bases",
      responses: { 200: { description: 'Oldest first', schema: listOf('knowledgeBases', knowledgeBaseResponse) } },
    },
    async (ctx) => {
      const tenant = await tenantOr404(tenancy, ctx.state.apiKey.tenantId);
      const knowledgeBases = await tenancy.listKnowledgeBases(tenant.id);
      ctx.body = { knowledgeBases: knowledgeBases.map((kb) => presentKnowledgeBase(kb, tenant)) };
    },
  );

  router.get(
    '/knowledge-bases/{kbId}',
    {
      summary: 'Read a knowledge base',
      responses: { 200: { description: 'The knowledge base', schema: knowledgeBaseResponse } },
      errors: [404],
    },
    async (ctx) => {
      const tenant = await tenantOr404(tenancy, ctx.state.apiKey.tenantId);
      ctx.body = presentKnowledgeBase(await ownedKnowledgeBase(tenancy, tenant.id, ctx.params.kbId!), tenant);
    },
  );

  router.get(
    '/knowledge-bases/{kbId}/search',
    {
      summary: 'Search a knowledge base',
      description:
        'The retrieval the AI answers from (hybrid BM25 and vector search): one row per source, its best passage, best first.',
      query: searchQuery,
      responses: { 200: { description: 'Best first', schema: searchResponse } },
      errors: [404],
    },
    async (ctx) => {
      const tenantId = ctx.state.apiKey.tenantId;
      const knowledgeBase = await ownedKnowledgeBase(tenancy, tenantId, ctx.params.kbId!);
      const { q, limit } = ctx.state.query;
      ctx.body = { results: await search.search(tenantId, knowledgeBase.id, q, limit) };
    },
  );

  return router;
}
