import type { ClusterDetail, StoredCluster } from './types.js';
import { clusterGaps, type ClusterableGap, type FixedCentre } from './clustering.js';
import { decodeVector } from './vectors.js';

/**
 * The clustering as a task that crosses threads: the gaps and addressed centres with their vectors
 * as stored (base64, decoded where the clustering runs), and a result that structured clone carries
 * (`details` stays a Map, which it copies).
 */
export interface ClusteringTask {
  gaps: (Omit<ClusterableGap, 'vector'> & { vector: string })[];
  fixedCentres: (Omit<FixedCentre, 'centre'> & { centre: string })[];
  threshold: number;
}

export interface ClusteringResult {
  clusters: StoredCluster[];
  details: Map<string, ClusterDetail>;
}

/** Runs a clustering task: on the worker's clustering thread (`clustering-runner.ts`), or in-process. */
export type ClusterGaps = (task: ClusteringTask) => Promise<ClusteringResult>;

/** Decodes the task's vectors and clusters them (`clusterGaps`): synchronous, CPU-bound. */
export function runClusteringTask({ gaps, fixedCentres, threshold }: ClusteringTask): ClusteringResult {
  return clusterGaps(
    gaps.map((gap) => ({ ...gap, vector: decodeVector(gap.vector) })),
    fixedCentres.map((fixed) => ({ ...fixed, centre: decodeVector(fixed.centre) })),
    threshold,
  );
}
