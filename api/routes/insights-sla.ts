import type { SlaCounts } from '#insights/sla-counts.js';
import { requestedDays } from '../insights-query.js';
import type { UserGuard } from '../middleware/token-budgets.js';
import { DocumentedRouter } from '../openapi/documented-router.js';
import { slaReportQuery, slaReportResponse } from '../schemas/insights-sla.js';
import type { UserState } from '../state.js';

export interface InsightsSlaRouterDeps {
  requireUser: UserGuard;
  slaCounts: Pick<SlaCounts, 'report'>;
  now?: () => Date;
}

/** The tenant's service-level outcomes over a range of days: met and breached, in total, per team and per agent. */
export function createInsightsSlaRouter({ requireUser, slaCounts, now = () => new Date() }: InsightsSlaRouterDeps) {
  const router = new DocumentedRouter<UserState>({ tags: ['Insights'], security: 'userToken', errors: [401, 403, 429, 503] });
  router.use(requireUser(['admin']));

  router.get(
    '/insights/sla',
    {
      summary: 'Service-level targets met and breached',
      description:
        'First response, next response and resolution targets of the tenant\'s teams (docs/agent-inbox.md, "Office hours and SLAs"), ' +
        'met or breached, over UTC days `from`–`to` (by the day each was decided), in total, per team and per agent. Read from day counters. Role admin.',
      query: slaReportQuery,
      responses: { 200: { description: 'The figures', schema: slaReportResponse } },
    },
    async (ctx) => {
      const { from, to } = requestedDays(ctx.state.query, now());
      ctx.body = { from, to, ...(await slaCounts.report(ctx.state.user.tenantId, from, to)) };
    },
  );
  return router;
}
