import { channels, type Channel } from '#workflows/conversations/types.js';
import { daysBetween } from '../day-counters.js';
import type { DayRange } from '../day-range.js';
import type { ContentGapStore } from './store.js';
import type { AddressedMark, DayCounts, GapOwner, StoredCluster } from './types.js';

export type { DayRange };

/** Which questions a read counts: those of a range of days, on one channel or (without `channel`) on every one. */
export type GapFilter = DayRange & { channel?: Channel };

/** A cluster as the API and the reports show it: counted over a range. */
export interface ClusterView {
  id: string;
  /** Questions in the range (on the channel, when one is asked for). */
  count: number;
  representative: string;
  /** Up to five wordings, latest first (of the channel, when one is asked for). */
  examples: string[];
  closestSources: StoredCluster['closestSources'];
  reasons: { unknown: number; ratedDown: number };
  /** Its first and last question (on the channel, when one is asked for), whatever the range. */
  firstAskedAt: string;
  lastAskedAt: string;
  addressed: {
    articleId: string | null;
    sourceKey: string | null;
    note: string | null;
    addressedAt: string;
    by: AddressedMark['by'];
    /** Questions of the cluster asked after it was marked (on the channel, when one is asked for), whatever the range. */
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

/**
 * Reading the latest clustering (one round trip): the clusters with questions in a range (and on a
 * channel, when one is asked for), most asked first.
 */
export function createClusterResults(store: Pick<ContentGapStore, 'readClusters'>) {
  async function list(owner: GapOwner, filter: GapFilter, limit: number): Promise<ClusterList> {
    const { results, recorded, marks } = await store.readClusters(owner);
    const markOf = new Map(marks.map((mark) => [mark.clusterId, mark]));
    const days = daysBetween(filter.from, filter.to);
    const clusters = (results?.clusters ?? [])
      .map((cluster) => viewOf(cluster, days, filter.channel, markOf.get(cluster.id)))
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
    /** The most asked clusters of an operator in a range, on a channel or every one (the reports' table). */
    async topClusters(owner: GapOwner, filter: GapFilter, limit: number): Promise<ClusterView[]> {
      return (await list(owner, filter, limit)).clusters;
    },
  };
}

export type ClusterResultsReader = ReturnType<typeof createClusterResults>;

/**
 * A cluster counted over some days: on one channel (its questions there, their first and last, its
 * wordings there, those asked since its mark), or on every channel (a result stored before the channels were kept counts only
 * here: its `days` are of no known channel).
 */
export function viewOf(
  cluster: StoredCluster,
  days: readonly string[],
  channel: Channel | undefined,
  mark: AddressedMark | undefined,
): ClusterView {
  const ofChannel = channel ? cluster.channels?.[channel] : undefined;
  const counted: (DayCounts | undefined)[] = channel
    ? [ofChannel?.days]
    : [...channels.map((each) => cluster.channels?.[each]?.days), cluster.days];
  let unknown = 0;
  let ratedDown = 0;
  for (const counts of counted) {
    if (!counts) continue;
    for (const day of days) {
      const ofDay = counts[day];
      if (!ofDay) continue;
      unknown += ofDay[0];
      ratedDown += ofDay[1];
    }
  }
  return {
    id: cluster.id,
    count: unknown + ratedDown,
    representative: cluster.representative,
    examples: (ofChannel ?? cluster).examples,
    closestSources: cluster.closestSources,
    reasons: { unknown, ratedDown },
    firstAskedAt: (ofChannel ?? cluster).firstAskedAt,
    lastAskedAt: (ofChannel ?? cluster).lastAskedAt,
    addressed: mark
      ? {
          articleId: mark.articleId,
          sourceKey: mark.sourceKey,
          note: mark.note,
          addressedAt: mark.addressedAt,
          by: mark.by,
          askedSince: (ofChannel ?? cluster).askedSince,
        }
      : null,
  };
}
