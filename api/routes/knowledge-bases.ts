import type { Tenancy } from '#tenancy/index.js';
import type { Middleware } from 'koa';
import { requireApiKey } from '../middleware/api-key-auth.js';
import { DocumentedRouter } from '../openapi/documented-router.js';
import { ownedKnowledgeBase, tenantOr404 } from '../ownership.js';
import { presentKnowledgeBase } from '../presenters.js';
import { knowledgeBaseResponse, listOf } from '../schemas/admin.js';
import type { AuthenticatedState } from '../state.js';

export interface KnowledgeBasesRouterDeps {
  tenancy: Tenancy;
  rateLimit: Middleware<AuthenticatedState>;
}

/** The knowledge bases of the key's tenant, so a connector can find its target without the dashboard. */
export function createKnowledgeBasesRouter({ tenancy, rateLimit }: KnowledgeBasesRouterDeps) {
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

  return router;
}
