import type { IngestionClient } from '#connector-sdk/index.js';
import type { CmsApi } from '#connectors/cms/cms-api.js';
import type { CmsConnector, ConnectorRecords, ShopConnector } from '#connectors/records.js';
import type { ShopApi } from '#connectors/shop/shop-api.js';
import type { SyncState } from '#connectors/sync-state.js';
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
