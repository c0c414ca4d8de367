import type { ContentGapStore } from './store.js';
import type { AddressedMark, GapOwner } from './types.js';

export interface AddressedMarksDeps {
  store: Pick<ContentGapStore, 'readClusters' | 'clusterDetail' | 'mark' | 'setMark' | 'removeMark'>;
  /** The embedding space the clusters' centres are in (`spaceKey`). */
  space: string;
  /** Asks for a clustering again, so the mark's centre and members take effect. */
  changed(owner: GapOwner): Promise<void>;
  onError(error: unknown): void;
  now?: () => Date;
}

export interface AddressedInput {
  articleId?: string;
  sourceKey?: string;
  note?: string;
}

/**
 * An owner's marks on clusters: "addressed" by an article or a source. The cluster's centre and
 * members are kept with the mark, so the next clusterings keep its members in it and let new close
 * questions join it, counted apart (`askedSince`).
 */
export function createAddressedMarks({ store, space, changed, onError, now = () => new Date() }: AddressedMarksDeps) {
  const recluster = (owner: GapOwner) => changed(owner).catch(onError);

  return {
    /** Marks a cluster addressed (replacing an earlier mark); undefined when the operator has no such cluster. */
    async mark(
      owner: GapOwner,
      clusterId: string,
      input: AddressedInput,
      by: AddressedMark['by'],
    ): Promise<AddressedMark | undefined> {
      const [detail, earlier] = await Promise.all([store.clusterDetail(owner, clusterId), store.mark(owner, clusterId)]);
      const kept = detail ? { centre: detail.centre, members: detail.members, space } : earlier;
      if (!kept) return undefined;
      const mark: AddressedMark = {
        clusterId,
        articleId: input.articleId ?? null,
        sourceKey: input.sourceKey ?? null,
        note: input.note ?? null,
        addressedAt: now().toISOString(),
        by,
        centre: kept.centre,
        space: kept.space,
        members: kept.members,
      };
      await store.setMark(owner, mark);
      await recluster(owner);
      return mark;
    },

    /** Removes a cluster's mark; false when it had none. */
    async unmark(owner: GapOwner, clusterId: string): Promise<boolean> {
      const removed = await store.removeMark(owner, clusterId);
      if (removed) await recluster(owner);
      return removed;
    },
  };
}

export type AddressedMarks = ReturnType<typeof createAddressedMarks>;
