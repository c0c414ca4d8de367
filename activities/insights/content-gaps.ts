import { log } from '@temporalio/activity';
import { defaultGapThreshold } from '#insights/content-gaps/clustering.js';
import type { ClusterGaps } from '#insights/content-gaps/clustering-task.js';
import type { GapOwner } from '#insights/content-gaps/types.js';

export interface ContentGapsActivityDeps {
  /** The embedding space of the knowledge bases' model (`spaceKey`): gaps of another are left out. */
  space: string;
  /**
   * Runs the clustering, loading and storing included: the worker's clustering thread
   * (`clusteringThread`), so that it never blocks the event loop, or `clusterInProcess` (tests, tools).
   */
  cluster: ClusterGaps;
  threshold?: number;
  now?: () => Date;
}

/** The content gaps' clustering: one activity, the whole of an operator's gaps at once. */
export function createContentGapsActivities({
  space,
  cluster,
  threshold = defaultGapThreshold,
  now = () => new Date(),
}: ContentGapsActivityDeps) {
  return {
    /**
     * Loads the operator's gaps and addressed marks, clusters them (`clusterGaps`) and replaces the stored result, all
     * through `cluster` (`runClusteringTask`). Idempotent: a retry clusters the same gaps again.
     */
    async clusterContentGaps(owner: GapOwner): Promise<{ covered: number; clusters: number }> {
      const { covered, clusters, leftOut } = await cluster({ owner, space, threshold, clusteredAt: now().toISOString() });
      if (leftOut > 0) log.info('gaps of another embedding space left out', { left: leftOut });
      return { covered, clusters };
    },
  };
}
