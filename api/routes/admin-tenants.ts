import type { Middleware } from 'koa';
import type { Tenancy } from '#tenancy/index.js';
import { DocumentedRouter } from '../openapi/documented-router.js';
import { tenantOr404 } from '../ownership.js';
import { presentKnowledgeBase, presentTenant } from '../presenters.js';
import {
  createKnowledgeBaseRequest,
  createTenantRequest,
  knowledgeBaseResponse,
  listOf,
  tenantResponse,
} from '../schemas/admin.js';

export interface AdminRouterDeps {
  tenancy: Tenancy;
  /** The admin token with its budgets (`api/middleware/token-budgets.ts`). */
  requireAdmin: Middleware;
}

/** Tenants and their knowledge bases, provisioned by the operator of the service. */
export function createAdminTenantsRouter({ tenancy, requireAdmin }: AdminRouterDeps) {
  const router = new DocumentedRouter({ tags: ['Administration'], security: 'admin', errors: [401, 429, 503] });
  router.use(requireAdmin);

  router.post(
    '/admin/tenants',
    {
      summary: 'Create a tenant with its default knowledge base',
      body: createTenantRequest,
      responses: { 201: { description: 'The tenant', schema: tenantResponse } },
    },
    async (ctx) => {
      const { name } = ctx.request.body;
      ctx.status = 201;
      ctx.body = presentTenant(await tenancy.createTenant(name));
    },
  );

  router.get(
    '/admin/tenants/{tenantId}',
    { summary: 'Read a tenant', responses: { 200: { description: 'The tenant', schema: tenantResponse } }, errors: [404] },
    async (ctx) => {
      ctx.body = presentTenant(await tenantOr404(tenancy, ctx.params.tenantId!));
    },
  );

  router.post(
    '/admin/tenants/{tenantId}/knowledge-bases',
    {
      summary: 'Create a knowledge base',
      body: createKnowledgeBaseRequest,
      responses: { 201: { description: 'The knowledge base; its id is a UUID', schema: knowledgeBaseResponse } },
      errors: [404],
    },
    async (ctx) => {
      const tenant = await tenantOr404(tenancy, ctx.params.tenantId!);
      const { name } = ctx.request.body;
      ctx.status = 201;
      ctx.body = presentKnowledgeBase(await tenancy.createKnowledgeBase(tenant.id, name), tenant);
    },
  );

  router.get(
    '/admin/tenants/{tenantId}/knowledge-bases',
    {
      summary: "List a tenant's knowledge bases",
      responses: { 200: { description: 'Oldest first', schema: listOf('knowledgeBases', knowledgeBaseResponse) } },
      errors: [404],
    },
    async (ctx) => {
      const tenant = await tenantOr404(tenancy, ctx.params.tenantId!);
      const knowledgeBases = await tenancy.listKnowledgeBases(tenant.id);
      ctx.body = { knowledgeBases: knowledgeBases.map((kb) => presentKnowledgeBase(kb, tenant)) };
    },
  );

  return router;
}
