import { daysBetween } from '../day-counters.js';
import type { DayRange } from '../day-range.js';
import type { ContentGapStore } from './store.js';
import type { AddressedMark, GapOwner, StoredCluster } from './types.js';

export type { DayRange };

/** A cluster as the API and the reports show it: counted over a range. */
export interface ClusterView {
  id: string;
  /** Questions in the range. */
  count: number;
  representative: string;
  examples: string[];
  closestSources: StoredCluster['closestSources'];
  reasons: { unknown: number; ratedDown: number };
  firstAskedAt: string;
  lastAskedAt: string;
  addressed: {
    articleId: string | null;
    sourceKey: string | null;
    note: string | null;
    addressedAt: string;
    by: AddressedMark['by'];
    /** Questions of the cluster asked after it was marked. */
    askedSince: number;
  } | null;
}

export interface ClusterList {
  clusters: ClusterView[];
  /** Gaps recorded since the clustering (or all, before any): they show once it runs again. */
  pending: number;
  /** When the clusters were made; null before any clustering. */
  clusteredAt: string | null;
}

/** Reading the latest clustering (one round trip): the clusters with questions in a range, most asked first. */
export function createClusterResults(store: Pick<ContentGapStore, 'readClusters'>) {
  async function list(owner: GapOwner, range: DayRange, limit: number): Promise<ClusterList> {
    const { results, recorded, marks } = await store.readClusters(owner);
    const markOf = new Map(marks.map((mark) => [mark.clusterId, mark]));
    const days = daysBetween(range.from, range.to);
    const clusters = (results?.clusters ?? [])
      .map((cluster) => viewOf(cluster, days, markOf.get(cluster.id)))
      .filter((cluster) => cluster.count > 0)
      .sort((a, b) => b.count - a.count || b.lastAskedAt.localeCompare(a.lastAskedAt) || a.id.localeCompare(b.id))
      .slice(0, limit);
    return {
      clusters,
      pending: Math.max(0, recorded - (results?.coveredSeq ?? 0)),
      clusteredAt: results?.clusteredAt ?? null,
    };
  }

  return {
    list,
    /** The most asked clusters of an operator in a range (the reports' table). */
    async topClusters(owner: GapOwner, range: DayRange, limit: number): Promise<ClusterView[]> {
      return (await list(owner, range, limit)).clusters;
    },
  };
}

export type ClusterResultsReader = ReturnType<typeof createClusterResults>;

export function viewOf(cluster: StoredCluster, days: readonly string[], mark: AddressedMark | undefined): ClusterView {
  let unknown = 0;
  let ratedDown = 0;
  for (const day of days) {
    const counts = cluster.days[day];
    if (!counts) continue;
    unknown += counts[0];
    ratedDown += counts[1];
  }
  return {
    id: cluster.id,
    count: unknown + ratedDown,
    representative: cluster.representative,
    examples: cluster.examples,
    closestSources: cluster.closestSources,
    reasons: { unknown, ratedDown },
    firstAskedAt: cluster.firstAskedAt,
    lastAskedAt: cluster.lastAskedAt,
    addressed: mark
      ? {
          articleId: mark.articleId,
          sourceKey: mark.sourceKey,
          note: mark.note,
          addressedAt: mark.addressedAt,
          by: mark.by,
          askedSince: cluster.askedSince,
        }
      : null,
  };
}
