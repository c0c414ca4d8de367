import { DocumentedRouter } from '../openapi/documented-router.js';
import { inTenantOr404, ownedKnowledgeBase, tenantOr404 } from '../ownership.js';
import { presentOperator } from '../presenters.js';
import { createOperatorRequest, listOf, operatorResponse, updateOperatorRequest } from '../schemas/admin.js';
import type { AdminRouterDeps } from './admin-tenants.js';

/**
 * AI operators: the public `op_` key of a widget, its knowledge base and its allowed origins. A key
 * can be rotated (the old one works for OPERATOR_KEY_GRACE_HOURS more) and an operator disabled.
 */
export function createAdminOperatorsRouter({ tenancy, requireAdmin }: AdminRouterDeps) {
  const router = new DocumentedRouter({ tags: ['Administration'], security: 'admin', errors: [401, 404, 429, 503] });
  router.use(requireAdmin);

  async function operatorOr404(ctx: { params: Record<string, string> }) {
    const tenant = await tenantOr404(tenancy, ctx.params.tenantId!);
    const operator = inTenantOr404(
      await tenancy.getOperator(ctx.params.operatorId!),
      tenant,
      `operator ${ctx.params.operatorId}`,
    );
    return { tenant, operator };
  }

  router.post(
    '/admin/tenants/{tenantId}/operators',
    {
      summary: 'Create an operator',
      description:
        "`knowledgeBaseId` defaults to the tenant's default knowledge base; an empty `allowedDomains` permits every origin.",
      body: createOperatorRequest,
      responses: { 201: { description: 'The operator', schema: operatorResponse } },
      errors: [403],
    },
    async (ctx) => {
      const tenant = await tenantOr404(tenancy, ctx.params.tenantId!);
      const { body } = ctx.request;
      const knowledgeBase = await ownedKnowledgeBase(tenancy, tenant.id, body.knowledgeBaseId ?? tenant.defaultKnowledgeBaseId);
      const operator = await tenancy.createOperator(tenant.id, {
        name: body.name,
        knowledgeBaseId: knowledgeBase.id,
        allowedDomains: body.allowedDomains ?? [],
        locale: body.locale ?? null,
      });
      ctx.status = 201;
      ctx.body = presentOperator(operator);
    },
  );

  router.get(
    '/admin/tenants/{tenantId}/operators',
    {
      summary: "List a tenant's operators",
      responses: { 200: { description: 'Oldest first', schema: listOf('operators', operatorResponse) } },
    },
    async (ctx) => {
      const tenant = await tenantOr404(tenancy, ctx.params.tenantId!);
      ctx.body = { operators: (await tenancy.listOperators(tenant.id)).map(presentOperator) };
    },
  );

  router.patch(
    '/admin/tenants/{tenantId}/operators/{operatorId}',
    {
      summary: 'Change an operator',
      description:
        '`active: false` disables the operator: the widget requests with its keys are refused (403) until `active: true`.',
      body: updateOperatorRequest,
      responses: { 200: { description: 'The operator', schema: operatorResponse } },
      errors: [403],
    },
    async (ctx) => {
      const { tenant, operator } = await operatorOr404(ctx);
      const changes = ctx.request.body;
      if (changes.knowledgeBaseId) await ownedKnowledgeBase(tenancy, tenant.id, changes.knowledgeBaseId);
      ctx.body = presentOperator(await tenancy.updateOperator(operator, changes));
    },
  );

  router.post(
    '/admin/tenants/{tenantId}/operators/{operatorId}/key',
    {
      summary: "Rotate an operator's key",
      description:
        'Issues a new `operatorKey`. The key it replaces keeps working until `previousKeyExpiresAt` (OPERATOR_KEY_GRACE_HOURS), so the pages that embed it can be updated; a key replaced by an earlier rotation stops at once.',
      responses: { 201: { description: 'The operator with its new key', schema: operatorResponse } },
    },
    async (ctx) => {
      const { operator } = await operatorOr404(ctx);
      ctx.status = 201;
      ctx.body = presentOperator(await tenancy.rotateOperatorKey(operator));
    },
  );

  return router;
}
