import type { AddressedMarks } from '#insights/content-gaps/addressed.js';
import type { ClusterResultsReader } from '#insights/content-gaps/results.js';
import type { Tenancy } from '#tenancy/index.js';
import { invalidPayload, notFound } from '../errors.js';
import { insightRange } from '#insights/day-range.js';
import { operatorOwner, requestedDays } from '../insights-query.js';
import type { UserGuard } from '../middleware/token-budgets.js';
import { DocumentedRouter } from '../openapi/documented-router.js';
import {
  addressedRequest,
  addressedResponse,
  contentGapOperatorQuery,
  contentGapsQuery,
  contentGapsResponse,
} from '../schemas/insights-content-gaps.js';
import type { UserState } from '../state.js';

export interface ContentGapsRouterDeps {
  tenancy: Pick<Tenancy, 'getOperator'>;
  requireUser: UserGuard;
  contentGaps: { results: Pick<ClusterResultsReader, 'list'>; marks: Pick<AddressedMarks, 'mark' | 'unmark'> };
  now?: () => Date;
}

/**
 * The content gaps of an operator (docs/insights.md): the clusters of questions the AI could not
 * answer (or whose answers were rated down), and the owner's marks on them. A tenant admin's user
 * token; an operator of another tenant is not there (404).
 */
export function createContentGapsRouter({ tenancy, requireUser, contentGaps, now = () => new Date() }: ContentGapsRouterDeps) {
  const router = new DocumentedRouter<UserState>({
    tags: ['Insights'],
    security: 'userToken',
    errors: [401, 403, 404, 429, 503],
  });
  router.use(requireUser(['admin']));

  const ownerOf = (ctx: { state: UserState & { query: { operatorId: string } } }) =>
    operatorOwner(tenancy, ctx.state.user.tenantId, ctx.state.query.operatorId);

  router.get(
    '/insights/content-gaps',
    {
      summary: "An operator's content gaps",
      description:
        'Clusters of the questions the AI could not answer, and of answers rated down, most asked in the range first (UTC days, both included; ' +
        `default the last ${insightRange.defaultDays} days, at most ${insightRange.maxDays}). ` +
        'With `channel`, each cluster counts, ranks and shows only its questions on that channel (`firstAskedAt`, `lastAskedAt`, `examples`, `addressed.askedSince` too), and a cluster not asked there in the range is not listed. ' +
        'Read from the latest clustering, which runs in the background shortly after gaps are recorded: `pending` says how many are not in it yet. Role admin.',
      query: contentGapsQuery,
      responses: { 200: { description: 'The clusters', schema: contentGapsResponse } },
    },
    async (ctx) => {
      const owner = await ownerOf(ctx);
      const range = requestedDays(ctx.state.query, now());
      const { channel, limit } = ctx.state.query;
      ctx.body = await contentGaps.results.list(owner, channel ? { ...range, channel } : range, limit);
    },
  );

  router.post(
    '/insights/content-gaps/{clusterId}/addressed',
    {
      summary: 'Mark a content gap addressed',
      description:
        'By an article (`articleId`) or a source (`sourceKey`), or both, with an optional note. The cluster keeps its centre and members: ' +
        'new questions close to it join it and are counted in `askedSince`, so you see whether what you wrote answers them. Marking again replaces the mark. Role admin.',
      query: contentGapOperatorQuery,
      body: addressedRequest,
      responses: { 200: { description: 'The mark', schema: addressedResponse } },
    },
    async (ctx) => {
      const owner = await ownerOf(ctx);
      const { articleId, sourceKey, note } = ctx.request.body;
      if (articleId === undefined && sourceKey === undefined)
        throw invalidPayload('Give `articleId`, `sourceKey` or both.', [
          { path: '', message: 'must have articleId or sourceKey' },
        ]);
      const { clusterId } = ctx.params;
      const mark = await contentGaps.marks.mark(
        owner,
        clusterId!,
        {
          ...(articleId === undefined ? {} : { articleId }),
          ...(sourceKey === undefined ? {} : { sourceKey }),
          ...(note === undefined ? {} : { note }),
        },
        { userId: ctx.state.user.id, name: ctx.state.user.name },
      );
      if (!mark) throw notFound(`No content-gap cluster ${clusterId}.`);
      const { articleId: article, sourceKey: source, note: text, addressedAt, by } = mark;
      ctx.body = {
        clusterId: mark.clusterId,
        addressed: { articleId: article, sourceKey: source, note: text, addressedAt, by, askedSince: 0 },
      };
    },
  );

  router.delete(
    '/insights/content-gaps/{clusterId}/addressed',
    {
      summary: 'Unmark a content gap',
      description: 'The cluster is an ordinary one again from the next clustering. 404 when it was not marked. Role admin.',
      query: contentGapOperatorQuery,
      responses: { 204: { description: 'Unmarked' } },
    },
    async (ctx) => {
      const owner = await ownerOf(ctx);
      const { clusterId } = ctx.params;
      if (!(await contentGaps.marks.unmark(owner, clusterId!)))
        throw notFound(`Content-gap cluster ${clusterId} is not marked addressed.`);
      ctx.status = 204;
    },
  );

  return router;
}
