import { log } from '@temporalio/activity';
import { clusterGaps, defaultGapThreshold } from '#insights/content-gaps/clustering.js';
import type { ContentGapStore } from '#insights/content-gaps/store.js';
import type { GapOwner } from '#insights/content-gaps/types.js';
import { decodeVector } from '#insights/content-gaps/vectors.js';

export interface ContentGapsActivityDeps {
  store: Pick<ContentGapStore, 'load' | 'marks' | 'saveClusters'>;
  /** The embedding space of the knowledge bases' model (`spaceKey`): gaps of another are left out. */
  space: string;
  threshold?: number;
  now?: () => Date;
}

/** The content gaps' clustering: one activity, the whole of an operator's gaps at once. */
export function createContentGapsActivities({
  store,
  space,
  threshold = defaultGapThreshold,
  now = () => new Date(),
}: ContentGapsActivityDeps) {
  return {
    /**
     * Loads the operator's gaps and addressed marks, clusters them (`clusterGaps`) and replaces the
     * stored result. Idempotent: a retry clusters the same gaps again.
     */
    async clusterContentGaps(owner: GapOwner): Promise<{ covered: number; clusters: number }> {
      const [{ gaps, seq }, marks] = await Promise.all([store.load(owner), store.marks(owner)]);
      const current = gaps.filter((gap) => gap.space === space);
      const { clusters, details } = clusterGaps(
        current.map((gap) => ({ ...gap, vector: decodeVector(gap.vector) })),
        marks
          .filter((mark) => mark.space === space)
          .map((mark) => ({
            clusterId: mark.clusterId,
            centre: decodeVector(mark.centre),
            members: mark.members,
            addressedAt: mark.addressedAt,
          })),
        threshold,
      );
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
