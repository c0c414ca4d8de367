import { MAX_BATCH_SIZE, sendInBatches } from './batches.js';
import type { IngestionClient } from './ingestion-client.js';
import type { IngestionItem, ProgressListener } from './types.js';

/** An item as a connector produces it; `fullSync` stamps the ids of the sync onto it. */
export type SyncItem = Omit<IngestionItem, 'integrationId' | 'knowledgeBaseId' | 'sourceOrigin'>;

export interface FullSyncOptions {
  client: Pick<IngestionClient, 'ingestBulk' | 'cleanup'>;
  knowledgeBaseId: string;
  integrationId: string;
  /** The origin tag that scopes cleanup: everything of this origin not seen in this run is deleted. */
  sourceOrigin: string;
  /** Every item the source currently has; streamed, so an async generator over pages works. */
  items: AsyncIterable<SyncItem> | Iterable<SyncItem>;
  batchSize?: number;
  onProgress?: ProgressListener;
  /**
   * A source that yields nothing would make cleanup delete every item of the origin. That is more often
   * a broken export than an emptied catalogue, so it is refused unless this is true.
   */
  allowEmpty?: boolean;
}

export interface FullSyncResult {
  ingested: number;
  jobIds: string[];
  deleted: number;
  orphanedExternalIds: string[];
}

/**
 * Mirrors one origin: ingests every item, then asks the service to delete the origin's items that were not
 * seen. Cleanup runs only after every batch was accepted; if any failed the error is rethrown and nothing
 * is deleted, since a partial list of ids would remove items that still exist.
 */
export async function fullSync(options: FullSyncOptions): Promise<FullSyncResult> {
  const seen = new Set<string>();
  let ingested = 0;

  async function* stamped(): AsyncGenerator<IngestionItem> {
    for await (const item of options.items) {
      seen.add(item.externalId);
      ingested += 1;
      yield {
        ...item,
        integrationId: options.integrationId,
        knowledgeBaseId: options.knowledgeBaseId,
        sourceOrigin: options.sourceOrigin,
      };
    }
  }

  const jobIds = await sendInBatches({
    ingestBulk: (batch) => options.client.ingestBulk(batch),
    items: stamped(),
    batchSize: options.batchSize ?? MAX_BATCH_SIZE,
    total: Array.isArray(options.items) ? options.items.length : undefined,
    onProgress: options.onProgress,
  });

  if (seen.size === 0 && !options.allowEmpty) {
    throw new Error(
      `fullSync of origin "${options.sourceOrigin}" saw no items; refusing to clean up (it would delete everything). Pass allowEmpty: true if the source really is empty.`,
    );
  }

  const cleanup = await options.client.cleanup({
    knowledgeBaseId: options.knowledgeBaseId,
    sourceOrigin: options.sourceOrigin,
    keepExternalIds: [...seen],
  });
  return { ingested, jobIds, deleted: cleanup.deleted, orphanedExternalIds: cleanup.orphanedExternalIds };
}
