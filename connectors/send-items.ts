import { createHash } from 'node:crypto';
import { contentHash, type IngestionClient, type IngestionItem, type SyncItem } from '#connector-sdk/index.js';
import type { Connector } from './records.js';
import type { SyncState } from './sync-state.js';

/** The ingestion API's bounds on one item (title length, content length); an item beyond them would fail its whole batch. */
const maxTitleChars = 1000;
const maxContentChars = 100_000;

export interface SendItemsOptions {
  client: Pick<IngestionClient, 'ingestAll'>;
  state: Pick<SyncState, 'fingerprints' | 'saveFingerprints' | 'noteSent'>;
  connector: Pick<Connector, 'id' | 'integrationId' | 'knowledgeBaseId'>;
  items: SyncItem[];
  /** `low` for scheduled syncs, `high` for a change the shop told us about. */
  priority: 'high' | 'low';
  /** The sync run the items belong to: their ids are what its cleanup keeps. */
  runId?: string;
  /** CMS: the latest modification time among the items, for the next incremental sync. */
  maxModified?: string;
}

/**
 * Sends a connector's items through the public ingestion API, as any client would.
 *
 * The service skips an item whose title and content hash is unchanged, and with it any change to its
 * url, metadata or structured data. So the connector remembers what it last sent of each item: when
 * only those changed (a price in `sourceData`, a new image), it sends the item as `metadataOnly`,
 * which updates them without re-embedding. Fingerprints are saved only once every batch was accepted.
 */
export async function sendItems(options: SendItemsOptions): Promise<number> {
  const { connector, state } = options;
  const items = options.items.map(withinLimits);
  const previous = await state.fingerprints(
    connector.id,
    items.map((item) => item.externalId),
  );
  const fingerprints = new Map<string, string>();
  const stamped: IngestionItem[] = items.map((item) => {
    const content = contentHash(item.data.title, item.data.content);
    const metadata = metadataHash(item);
    fingerprints.set(item.externalId, `${content}:${metadata}`);
    const [lastContent, lastMetadata] = previous.get(item.externalId)?.split(':') ?? [];
    const metadataOnly = lastContent === content && lastMetadata !== metadata;
    return {
      ...item,
      integrationId: connector.integrationId,
      knowledgeBaseId: connector.knowledgeBaseId,
      sourceOrigin: connector.integrationId,
      data: { ...item.data, hash: content },
      options: { ...item.options, priority: options.priority, ...(metadataOnly ? { metadataOnly: true } : {}) },
    };
  });
  if (stamped.length > 0) await options.client.ingestAll(stamped, { batchSize: 100 });
  await state.saveFingerprints(connector.id, fingerprints);
  if (options.runId) {
    await state.noteSent(
      connector.id,
      options.runId,
      items.map((item) => item.externalId),
      options.maxModified,
    );
  }
  return stamped.length;
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
    data: { ...item.data, title: title.slice(0, maxTitleChars), content: item.data.content.slice(0, maxContentChars) },
  };
}
