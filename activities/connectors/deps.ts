import type { IngestionClient } from '#connector-sdk/index.js';
import type { CmsApi } from '#connectors/cms/cms-api.js';
import type { CmsConnector, ConnectorRecords, ShopConnector } from '#connectors/records.js';
import type { ShopApi } from '#connectors/shop/shop-api.js';
import type { DocumentReader } from '#connectors/documents/document-reader.js';
import type { DocumentLimits } from '#connectors/documents/limits.js';
import type { Patience } from '#connectors/retrying-get.js';
import type { SyncState } from '#connectors/sync-state.js';
import type { CrawlState } from '#connectors/website/crawl-state.js';
import type { FileRecords } from '#connectors/files/file-records.js';
import type { UploadStaging } from '#connectors/files/staging.js';
import type { FileChange } from '#connectors/files/apply-file.js';
import type { CrawlObserver } from '#connectors/website/crawl-step.js';
import type { OutboundFiles } from '#platform/outbound/outbound-http.js';
import type { EventEmitter } from '#outbound-events/emitter.js';

/** What the connectors' activities reach the world through: the sources' APIs and our own public API. */
export interface ConnectorActivityDeps {
  connectors: Pick<ConnectorRecords, 'get' | 'secretsOf'>;
  syncState: SyncState;
  /** Website crawls: their frontiers, counts and failures, and what each page gave last time. */
  crawlState: CrawlState;
  /** Files sources: their files' records, and the uploads waiting to be read. */
  files: FileRecords;
  staging: Pick<UploadStaging, 'read' | 'discard'>;
  /** A client of the public ingestion API that sends the connector's own API key. */
  ingestionClient(apiKey: string): IngestionClient;
  shopApi(connector: ShopConnector, accessToken: string): ShopApi;
  cmsApi(connector: CmsConnector, applicationPassword: string | undefined): CmsApi;
  /** How a crawl asks a website for pages and files: the guarded way out, bounded by the activity. */
  websitePatience(): Patience & { http: OutboundFiles };
  /** Told of each file taken in, refused or removed (the worker's metrics). */
  fileObserver?: { changed(change: FileChange): void };
  /** Told of each crawl step's page counts (the worker's metrics). */
  crawlObserver?: CrawlObserver;
  /** Limits of a document: an uploaded file, or one a crawl reads (a linked PDF or Word file). */
  documentLimits: DocumentLimits;
  /** Reads documents and crawled pages on a thread of their own, bounded in memory and time. */
  documents: Pick<DocumentReader, 'read' | 'readPage'>;
  /** Pages one sync run may read (CONNECTOR_MAX_PAGES_PER_RUN). */
  maxPagesPerRun: number;
  /** Tells the tenant's event endpoints of a failed sync (`connector.sync_failed`). */
  outboundEvents?: Pick<EventEmitter, 'emit'>;
  /** Tells Temporal the activity made progress (a heartbeat): a page read, a batch sent. */
  progress(): void;
}
