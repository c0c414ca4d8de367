import type { IngestionClient } from '#connector-sdk/index.js';
import type { CmsApi } from '#connectors/cms/cms-api.js';
import type { CmsConnector, Connector, ConnectorRecords, ConnectorSecrets, ShopConnector } from '#connectors/records.js';
import type { ShopApi } from '#connectors/shop/shop-api.js';
import type { SyncState } from '#connectors/sync-state.js';
import { ConnectorGoneError } from './failures.js';
import type { EventEmitter } from '#outbound-events/emitter.js';

/** What the connectors' activities reach the world through: the sources' APIs and our own public API. */
export interface ConnectorActivityDeps {
  connectors: Pick<ConnectorRecords, 'get' | 'secretsOf'>;
  syncState: SyncState;
  /** A client of the public ingestion API that sends the connector's own API key. */
  ingestionClient(apiKey: string): IngestionClient;
  shopApi(connector: ShopConnector, accessToken: string): ShopApi;
  cmsApi(connector: CmsConnector, applicationPassword: string | undefined): CmsApi;
  /** Pages one sync run may read (CONNECTOR_MAX_PAGES_PER_RUN). */
  maxPagesPerRun: number;
  /** Tells the tenant's event endpoints of a failed sync (`connector.sync_failed`). */
  outboundEvents?: Pick<EventEmitter, 'emit'>;
  /** Tells Temporal the activity made progress (a heartbeat): a page read, a batch sent. */
  progress(): void;
}

/** A connector of `kind`; ConnectorGoneError when it was removed (or is of another kind). */
export async function connectorOf<Kind extends Connector['kind']>(
  connectors: Pick<ConnectorActivityDeps['connectors'], 'get'>,
  connectorId: string,
  kind: Kind,
): Promise<Extract<Connector, { kind: Kind }>> {
  const connector = await connectors.get(connectorId);
  if (connector?.kind !== kind) throw new ConnectorGoneError(connectorId);
  return connector as Extract<Connector, { kind: Kind }>;
}

/** A connector of `kind` with its secrets opened (see `connectorOf`). */
export async function openConnector<Kind extends Connector['kind']>(
  connectors: ConnectorActivityDeps['connectors'],
  connectorId: string,
  kind: Kind,
): Promise<{ connector: Extract<Connector, { kind: Kind }>; secrets: ConnectorSecrets }> {
  const connector = await connectorOf(connectors, connectorId, kind);
  return { connector, secrets: await connectors.secretsOf(connector) };
}
