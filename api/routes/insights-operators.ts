import type { Tenancy } from '#tenancy/index.js';
import type { UserGuard } from '../middleware/token-budgets.js';
import { DocumentedRouter } from '../openapi/documented-router.js';
import { insightsOperatorsResponse } from '../schemas/insights-operators.js';
import type { UserState } from '../state.js';

export interface InsightsOperatorsRouterDeps {
  tenancy: Pick<Tenancy, 'listOperators'>;
  requireUser: UserGuard;
}

/**
 * The operators whose insights a tenant admin can read: what the Insights view offers to choose
 * from. Names and ids only (an operator's key is for its pages, not for this list).
 */
export function createInsightsOperatorsRouter({ tenancy, requireUser }: InsightsOperatorsRouterDeps) {
  const router = new DocumentedRouter<UserState>({ tags: ['Insights'], security: 'userToken', errors: [401, 403, 429, 503] });
  router.use(requireUser(['admin']));

  router.get(
    '/insights/operators',
    {
      summary: "The tenant's operators, for its reports",
      description: 'Id, name, knowledge base and whether the operator is active, in the order they were created. Role admin.',
      responses: { 200: { description: 'The operators', schema: insightsOperatorsResponse } },
    },
    async (ctx) => {
      const operators = await tenancy.listOperators(ctx.state.user.tenantId);
      ctx.body = {
        operators: operators.map(({ id, name, knowledgeBaseId, active }) => ({ id, name, knowledgeBaseId, active })),
      };
    },
  );
  return router;
}
