import { createHash } from 'node:crypto';
import { contentHash, type IngestionClient, type IngestionItem, type SyncItem } from '#connector-sdk/index.js';
import { ingestLimits } from '#knowledge/ingest-limits.js';
import type { Connector } from './records.js';
import type { SyncState } from './sync-state.js';

export interface SendItemsOptions {
  client: Pick<IngestionClient, 'ingestAll' | 'ingest'>;
  state: Pick<SyncState, 'fingerprints' | 'saveFingerprints' | 'noteSent' | 'noteUnchanged'>;
  /** `sourceOrigin`, when the items' origin is not the connector's own (each uploaded file has its own). */
  connector: Pick<Connector, 'id' | 'integrationId' | 'knowledgeBaseId'> & { sourceOrigin?: string };
  items: SyncItem[];
  /** `low` for scheduled syncs, `high` for a change the shop told us about. */
  priority: 'high' | 'low';
  /**
   * A change the shop told us about (its webhook): each item is sent on its own (POST /ingest), which
   * the service takes as a person's change, before any import's items. Otherwise in bulk calls.
   */
  oneByOne?: boolean;
  /** The sync run the items belong to: their ids are what its cleanup keeps. */
  runId?: string;
  /** CMS: the latest modification time among the items, for the next incremental sync. */
  maxModified?: string;
  /** Told after each bulk call (an activity's progress heartbeat). */
  onBatch?: () => void;
  /** The clock of the weekly resend; `Date.now` unless a test sets it. */
  now?: () => number;
}

/** Items unchanged since they were last sent are sent again once this long after (see `sendItems`). */
export const resendEveryMs = 7 * 24 * 3_600_000;

/**
 * Sends a connector's items through the public ingestion API, as any client would; resolves to how
 * many were sent.
 *
 * The connector remembers what it last sent of each item (`contentHash:metadataHash:epoch`):
 * - title and content changed, or the item is new: sent in full;
 * - only its url, metadata or structured data changed (a price in `sourceData`, a new image): sent as
 *   `metadataOnly`, which updates them without re-embedding (the service would skip the item
 *   altogether on its unchanged hash);
 * - nothing changed: not sent at all, so the scheduled sync of a large unchanged catalogue costs the
 *   service nothing. Once a week (`resendEveryMs`, by epoch) such items are sent anyway and skipped by
 *   their hash, which repairs any item the service lost since.
 * Fingerprints are saved only once every batch was accepted; every listed id counts as seen by the run.
 */
export async function sendItems(options: SendItemsOptions): Promise<number> {
  const { connector, state } = options;
  const epoch = String(Math.floor((options.now ?? Date.now)() / resendEveryMs));
  const items = options.items.map((item) => asSent(item, connector, options.priority));
  const previous = await state.fingerprints(
    connector.id,
    items.map((item) => item.externalId),
  );
  const fingerprints = new Map<string, string>();
  const unchanged: string[] = [];
  const toSend: IngestionItem[] = [];
  for (const item of items) {
    const content = item.data.hash;
    const metadata = metadataHash(item);
    const [lastContent, lastMetadata, lastEpoch] = previous.get(item.externalId)?.split(':') ?? [];
    if (lastContent === content && lastMetadata === metadata && lastEpoch === epoch) {
      unchanged.push(item.externalId);
      continue;
    }
    fingerprints.set(item.externalId, `${content}:${metadata}:${epoch}`);
    const metadataOnly = lastContent === content && lastMetadata !== metadata;
    toSend.push(metadataOnly ? { ...item, options: { ...item.options, metadataOnly: true } } : item);
  }
  const { onBatch } = options;
  if (options.oneByOne) {
    for (const item of toSend) {
      await options.client.ingest(item);
      onBatch?.();
    }
  } else if (toSend.length > 0) {
    await options.client.ingestAll(toSend, { batchSize: 100, ...(onBatch ? { onProgress: () => onBatch() } : {}) });
  }
  await state.saveFingerprints(connector.id, fingerprints);
  if (options.runId) {
    await state.noteUnchanged(connector.id, options.runId, unchanged);
    await state.noteSent(
      connector.id,
      options.runId,
      toSend.map((item) => item.externalId),
      options.maxModified,
    );
  }
  return toSend.length;
}

/**
 * An item as a connector sends it: within the API's limits, stamped with the connector's integration,
 * knowledge base and origin, its title and content hashed, at `priority`.
 */
export function asSent(
  synced: SyncItem,
  connector: Pick<Connector, 'integrationId'> & { knowledgeBaseId?: string; sourceOrigin?: string },
  priority: 'high' | 'low',
): IngestionItem & { data: { hash: string } } {
  const item = withinLimits(synced);
  return {
    ...item,
    integrationId: connector.integrationId,
    ...(connector.knowledgeBaseId ? { knowledgeBaseId: connector.knowledgeBaseId } : {}),
    sourceOrigin: connector.sourceOrigin ?? connector.integrationId,
    data: { ...item.data, hash: contentHash(item.data.title, item.data.content) },
    options: { ...item.options, priority },
  };
}

function metadataHash(item: SyncItem): string {
  const { url = null, metadata = null, sourceData = null } = item.data;
  return createHash('sha256')
    .update(JSON.stringify([url, metadata, sourceData]))
    .digest('hex');
}

/** A blank title becomes the external id; an over-long title or content is cut to what the API takes. */
function withinLimits(item: SyncItem): SyncItem {
  const title = item.data.title.trim() || item.externalId;
  return {
    ...item,
    data: {
      ...item.data,
      title: title.slice(0, ingestLimits.titleChars),
      content: item.data.content.slice(0, ingestLimits.contentChars),
    },
  };
}
