import { ApplicationFailure } from '@temporalio/activity';
import { KeepListMissingError, type CleanupLists } from '#knowledge/cleanup-lists.js';
import type { IngestionClient } from '#knowledge/ingestion-client.js';
import type { SourceStore } from '#knowledge/sources.js';
import { parseSourceKey } from '#workflows/ids.js';
import type { CleanupInput, OrphanedSource, OrphanPage } from '#workflows/ingestion/types.js';
import { sendToItems } from './send-to-items.js';

export interface CleanupDeps {
  sources: SourceStore;
  ingestion: Pick<IngestionClient, 'remove'>;
  cleanupLists: Pick<CleanupLists, 'keeps' | 'recordDeleted'>;
}

export function createCleanupActivities({ sources, ingestion, cleanupLists }: CleanupDeps) {
  return {
    /**
     * About `limit` sources of exactly this origin whose external id the cleanup's staged keep list
     * does not hold, scanned from `cursor` on, and the cursor of the next page (none after the last).
     * A keep list no longer staged fails the cleanup for good: it must not delete what it would keep.
     */
    async findOrphanPage(input: CleanupInput & { cleanupId: string; cursor: string; limit: number }): Promise<OrphanPage> {
      const found = new Set<string>();
      let cursor = input.cursor;
      try {
        do {
          const page = await sources.scanOrigin(input.tenantId, input.knowledgeBaseId, input.sourceOrigin, {
            cursor,
            count: input.limit,
          });
          const externalIds = page.sourceKeys.map((sourceKey) => parseSourceKey(sourceKey).externalId);
          const kept = await cleanupLists.keeps(input.tenantId, input.cleanupId, externalIds);
          page.sourceKeys.forEach((sourceKey, i) => kept[i] || found.add(sourceKey));
          cursor = page.cursor;
        } while (cursor !== '0' && found.size < input.limit);
      } catch (error) {
        if (error instanceof KeepListMissingError) throw ApplicationFailure.nonRetryable(error.message, 'keep_list_missing');
        throw error;
      }
      const orphanKeys = [...found];
      const records = await sources.getMany(input.tenantId, orphanKeys);
      const orphans = orphanKeys.map((sourceKey, i) => ({
        sourceKey,
        ...parseSourceKey(sourceKey),
        sourceType: records[i]?.sourceType ?? '',
      }));
      return cursor === '0' ? { orphans } : { orphans, cursor };
    },

    /** Appends what a page of the cleanup deleted to its run's list; the answer to the request reads it. */
    async recordDeletedSources(input: { tenantId: string; cleanupId: string; run: string; externalIds: string[] }) {
      await cleanupLists.recordDeleted(input.tenantId, input.cleanupId, input.run, input.externalIds);
    },

    /**
     * Cleanups started before F16: the sources of exactly this origin in the knowledge base whose
     * external id is not kept, in a stable order.
     */
    async findOrphanedSources(input: CleanupInput): Promise<OrphanedSource[]> {
      const keep = new Set(input.keepExternalIds);
      const orphanKeys = (await sources.listByOrigin(input.tenantId, input.knowledgeBaseId, input.sourceOrigin))
        .filter((sourceKey) => !keep.has(parseSourceKey(sourceKey).externalId))
        .sort();
      const records = await sources.getMany(input.tenantId, orphanKeys);
      return orphanKeys.map((sourceKey, i) => ({
        sourceKey,
        ...parseSourceKey(sourceKey),
        sourceType: records[i]?.sourceType ?? '',
      }));
    },

    /** Asks each orphan's item workflow to delete it (starting the workflow when none runs). */
    async requestSourceDeletions(input: CleanupInput & { sources: OrphanedSource[]; replyTo: string }): Promise<void> {
      await sendToItems(input.sources, (source) =>
        ingestion.remove(
          { tenantId: input.tenantId, integrationId: source.integrationId, externalId: source.externalId },
          {
            knowledgeBaseId: input.knowledgeBaseId,
            sourceOrigin: input.sourceOrigin,
            replyTo: input.replyTo,
            sourceType: source.sourceType,
            lane: 'bulk',
          },
        ),
      );
    },
  };
}
