import type { IngestionClient } from '#knowledge/ingestion-client.js';
import type { SourceStore } from '#knowledge/sources.js';
import { parseSourceKey } from '#workflows/ids.js';
import type { CleanupInput, OrphanedSource } from '#workflows/ingestion/types.js';
import { sendToItems } from './send-to-items.js';

export interface CleanupDeps {
  sources: SourceStore;
  ingestion: Pick<IngestionClient, 'remove'>;
}

export function createCleanupActivities({ sources, ingestion }: CleanupDeps) {
  return {
    /** The sources of exactly this origin in the knowledge base whose external id is not kept, in a stable order. */
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
            priority: 'low',
          },
        ),
      );
    },
  };
}
