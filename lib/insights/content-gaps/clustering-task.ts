import { clusterGaps } from './clustering.js';
import type { ContentGapStore } from './store.js';
import type { GapOwner } from './types.js';
import { decodeVector } from './vectors.js';

/**
 * An operator's clustering as a task that crosses threads: only its name crosses (the owner, the
 * embedding space, the threshold, the time), and only the counts come back. Where the task runs, the
 * gaps and marks are loaded from Redis, clustered and the result stored (`runClusteringTask`), so
 * neither the gaps (up to 110 MB at 50,000) nor the result are ever copied between threads.
 */
export interface ClusteringTask {
  owner: GapOwner;
  /** The embedding space of the knowledge bases' model (`spaceKey`): gaps and marks of another are left out. */
  space: string;
  threshold: number;
  /** The result's `clusteredAt`. */
  clusteredAt: string;
}

export interface ClusteringOutcome {
  /** Gaps clustered. */
  covered: number;
  clusters: number;
  /** Gaps of another embedding space, left out. */
  leftOut: number;
}

/** Runs a clustering task: on the worker's clustering thread (`clustering-runner.ts`), or in-process. */
export type ClusterGaps = (task: ClusteringTask) => Promise<ClusteringOutcome>;

export type ClusteringStore = Pick<ContentGapStore, 'load' | 'marks' | 'saveClusters'>;

/** What the clustering thread is started with: where its Redis is, and the level of its log (connection warnings). */
export interface ClusteringThreadOptions {
  redisUrl: string;
  prefix: string;
  logLevel: string;
}

/**
 * Loads the operator's gaps and addressed marks, clusters them (`clusterGaps`: CPU-bound, seconds at
 * 50,000 gaps) and replaces the stored result. Idempotent: a retry clusters the same gaps again.
 */
export async function runClusteringTask(
  store: ClusteringStore,
  { owner, space, threshold, clusteredAt }: ClusteringTask,
): Promise<ClusteringOutcome> {
  const [{ gaps, seq }, marks] = await Promise.all([store.load(owner), store.marks(owner)]);
  const current = gaps.filter((gap) => gap.space === space);
  const { clusters, details } = clusterGaps(
    current.map(({ id, question, askedAt, channel, reason, closestSources, vector }) => ({
      id,
      question,
      askedAt,
      channel,
      reason,
      closestSources,
      vector: decodeVector(vector),
    })),
    marks
      .filter((mark) => mark.space === space)
      .map(({ clusterId, centre, members, addressedAt }) => ({ clusterId, centre: decodeVector(centre), members, addressedAt })),
    threshold,
  );
  await store.saveClusters(owner, { clusteredAt, covered: current.length, coveredSeq: seq, clusters }, details);
  return { covered: current.length, clusters: clusters.length, leftOut: gaps.length - current.length };
}
