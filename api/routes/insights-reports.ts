import type { Tenancy } from '#tenancy/index.js';
import { isTableName, reportTable, tableNames } from '#insights/report-tables.js';
import { insightRange } from '#insights/day-range.js';
import { reportLimits, type Reports } from '#insights/reports.js';
import { operatorOwner, requestedDays } from '../insights-query.js';
import { csvOf } from '../csv.js';
import { notFound } from '../errors.js';
import type { UserGuard } from '../middleware/token-budgets.js';
import { DocumentedRouter } from '../openapi/documented-router.js';
import { reportQuery, reportResponse, reportTableParameter } from '../schemas/insights-reports.js';
import type { UserState } from '../state.js';

export interface InsightsReportsRouterDeps {
  tenancy: Pick<Tenancy, 'getOperator'>;
  requireUser: UserGuard;
  reports: Reports;
  /** Today, for the default range (a test's clock). */
  now?: () => Date;
}

type ReportQuery = { operatorId: string; from?: string; to?: string; channel?: 'widget' | 'messaging' };

/**
 * An operator's reports (docs/insights.md, "Reports"), for its tenant's admins: the figures of a
 * range of days as JSON, and each of their tables as CSV. Another tenant's operator is not there (404).
 */
export function createInsightsReportsRouter({
  tenancy,
  requireUser,
  reports,
  now = () => new Date(),
}: InsightsReportsRouterDeps) {
  const router = new DocumentedRouter<UserState>({
    tags: ['Insights'],
    security: 'userToken',
    errors: [401, 403, 404, 429, 503],
  });
  router.use(requireUser(['admin']));

  /** The operator's counters and the range asked for, or the error that says why not. */
  const reportOf = async (user: UserState['user'], query: ReportQuery, rows?: number) => {
    const range = requestedDays(query, now());
    const owner = await operatorOwner(tenancy, user.tenantId, query.operatorId);
    const channel = query.channel;
    const report = await reports.report(owner, range, { ...(channel ? { channel } : {}), ...(rows ? { rows } : {}) });
    return { ...range, channel: channel ?? null, report };
  };

  router.get(
    '/insights/reports',
    {
      summary: "An operator's report over a range of days",
      description:
        `Conversations by day and channel, outcomes with the AI resolution and handoff rates, handoff reasons, the median time to the first agent reply, answer feedback, satisfaction, the ${reportLimits.topSources} most cited sources (every channel) and the ${reportLimits.contentGaps} largest content-gap clusters, over UTC days \`from\`–\`to\` (default the last ${insightRange.defaultDays} days, at most ${insightRange.maxDays}), of one \`channel\` or both. ` +
        'Read from day counters: the cost does not grow with the number of conversations. Role admin.',
      query: reportQuery,
      responses: { 200: { description: 'The report', schema: reportResponse } },
    },
    async (ctx) => {
      const { report, ...range } = await reportOf(ctx.state.user, ctx.state.query);
      const { daily: _daily, ...figures } = report;
      ctx.body = { operatorId: ctx.state.query.operatorId, ...range, ...figures };
    },
  );

  router.get(
    '/insights/reports/{table}.csv',
    {
      summary: "One table of an operator's report, as CSV",
      description:
        `Tables: ${tableNames.map((name) => `\`${name}\``).join(', ')} (\`daily\`: one row per day and channel; the ranked tables list up to ${reportLimits.exportedRows} rows); any other: 404. ` +
        "RFC 4180 with a header row, UTF-8; text cells starting with `=`, `+`, `-`, `@`, a tab or a carriage return are prefixed with `'` so a spreadsheet never runs them as formulas. " +
        'Sent as an attachment named `<table>-<operatorId>-<from>-<to>.csv`. Same query as the report. Role admin.',
      query: reportQuery,
      responses: {
        200: {
          description: `The table as CSV (${reportTableParameter.description})`,
          schema: { type: 'string' },
          contentType: 'text/csv; charset=utf-8',
        },
      },
    },
    async (ctx) => {
      const { table } = ctx.params as { table: string };
      if (!isTableName(table)) throw notFound(`No report table ${table}: the tables are ${tableNames.join(', ')}.`);
      const { report, from, to } = await reportOf(ctx.state.user, ctx.state.query, reportLimits.exportedRows);
      ctx.type = 'text/csv; charset=utf-8';
      ctx.attachment(`${table}-${ctx.state.query.operatorId}-${from}-${to}.csv`);
      ctx.body = csvOf(reportTable(table, report));
    },
  );

  return router;
}
