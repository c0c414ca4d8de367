import { log } from '@temporalio/activity';
import { defaultGapThreshold } from '#insights/content-gaps/clustering.js';
import type { ClusterGaps } from '#insights/content-gaps/clustering-task.js';
import type { ContentGapStore } from '#insights/content-gaps/store.js';
import type { GapOwner } from '#insights/content-gaps/types.js';

export interface ContentGapsActivityDeps {
  store: Pick<ContentGapStore, 'load' | 'marks' | 'saveClusters'>;
  /** The embedding space of the knowledge bases' model (`spaceKey`): gaps of another are left out. */
  space: string;
  /**
   * Runs the clustering: the worker's clustering thread (`startClusteringThread`), so that it never
   * blocks the event loop, or `clusterInProcess` (tests, tools).
   */
  cluster: ClusterGaps;
  threshold?: number;
  now?: () => Date;
}

/** The content gaps' clustering: one activity, the whole of an operator's gaps at once. */
export function createContentGapsActivities({
  store,
  space,
  cluster,
  threshold = defaultGapThreshold,
  now = () => new Date(),
}: ContentGapsActivityDeps) {
  return {
    /**
     * Loads the operator's gaps and addressed marks, clusters them (`clusterGaps`, through `cluster`) and replaces the
     * stored result. Idempotent: a retry clusters the same gaps again.
     */
    async clusterContentGaps(owner: GapOwner): Promise<{ covered: number; clusters: number }> {
      const [{ gaps, seq }, marks] = await Promise.all([store.load(owner), store.marks(owner)]);
      const current = gaps.filter((gap) => gap.space === space);
      const { clusters, details } = await cluster({
        gaps: current.map(({ id, question, askedAt, channel, reason, closestSources, vector }) => ({
          id,
          question,
          askedAt,
          channel,
          reason,
          closestSources,
          vector,
        })),
        fixedCentres: marks
          .filter((mark) => mark.space === space)
          .map(({ clusterId, centre, members, addressedAt }) => ({ clusterId, centre, members, addressedAt })),
        threshold,
      });
      await store.saveClusters(
        owner,
        { clusteredAt: now().toISOString(), covered: current.length, coveredSeq: seq, clusters },
        details,
      );
      if (current.length < gaps.length)
        log.info('gaps of another embedding space left out', { left: gaps.length - current.length });
      return { covered: current.length, clusters: clusters.length };
    },
  };
}
