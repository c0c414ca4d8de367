import { Context, heartbeat } from '@temporalio/activity';
import type { ConnectorActivityDeps } from '#activities/connectors/deps.js';
import { createIngestionClient } from '#connector-sdk/index.js';
import { createCmsApi } from '#connectors/cms/cms-api.js';
import type { ConnectorRecords } from '#connectors/records.js';
import type { Patience } from '#connectors/retrying-get.js';
import { createShopApi } from '#connectors/shop/shop-api.js';
import type { SyncState } from '#connectors/sync-state.js';
import type { Logger } from '#platform/logger.js';
import type { DocumentReader } from '#connectors/documents/document-reader.js';
import type { DocumentLimits } from '#connectors/documents/limits.js';
import type { CrawlState } from '#connectors/website/crawl-state.js';
import type { FileRecords } from '#connectors/files/file-records.js';
import type { UploadStaging } from '#connectors/files/staging.js';
import type { CrawlObserver } from '#connectors/website/crawl-step.js';
import type { OutboundFiles, OutboundHttp } from '#platform/outbound/outbound-http.js';

/** A source's client must leave this much of its activity's start-to-close to send what it read. */
const sendingReserveMs = 60_000;
/** One wait for a rate-limited or failing source: below the activities' heartbeat timeout, which a wait does not reset. */
const maxWaitMs = 30_000;

/**
 * The connectors' clients in a worker: records and sync state in Redis, the sources' APIs, and the
 * service's own public ingestion API at `ingestionApiUrl`. The sources are reached through `http`, the
 * guarded way out (lib/platform/outbound/); the ingestion API, an address of our own, is not.
 *
 * Activities heartbeat on progress only: each answer a source gives, each wait decided for a
 * rate-limited source or a retried ingestion call, each batch sent. A source's client is made inside
 * its activity and is bounded by it: its waits end before the attempt's start-to-close (less time to
 * send), and the activity's cancellation (a heartbeat timeout among its reasons) aborts the request
 * and the wait under way, which frees the worker slot.
 */
export function createConnectorActivityDeps(options: {
  records: ConnectorRecords;
  syncState: SyncState;
  crawlState: CrawlState;
  files: FileRecords;
  staging: UploadStaging;
  ingestionApiUrl: string;
  http: OutboundHttp & OutboundFiles;
  documentLimits: DocumentLimits;
  documents: Pick<DocumentReader, 'read' | 'readPage'>;
  crawlObserver?: CrawlObserver;
  fileObserver?: ConnectorActivityDeps['fileObserver'];
  logger: Logger;
  maxPagesPerRun: number;
}): ConnectorActivityDeps {
  const { logger } = options;
  const progress = () => heartbeat();
  const patience = (source: string): Patience => {
    const { info, cancellationSignal } = Context.current();
    return {
      http: options.http,
      maxWaitMs,
      deadline: Date.now() + info.startToCloseTimeoutMs - sendingReserveMs,
      signal: cancellationSignal,
      onAnswer: progress,
      onWait: (event) => {
        logger.info({ source, ...event }, 'connector waits before asking again');
        progress();
      },
    };
  };
  return {
    connectors: options.records,
    syncState: options.syncState,
    crawlState: options.crawlState,
    files: options.files,
    staging: options.staging,
    documentLimits: options.documentLimits,
    documents: options.documents,
    ...(options.crawlObserver ? { crawlObserver: options.crawlObserver } : {}),
    ...(options.fileObserver ? { fileObserver: options.fileObserver } : {}),
    maxPagesPerRun: options.maxPagesPerRun,
    progress,
    ingestionClient: (apiKey) =>
      createIngestionClient({
        baseUrl: options.ingestionApiUrl,
        apiKey,
        onRetry: ({ method, path, retry, delayMs, status }) => {
          logger.warn({ method, path, retry, delayMs, status }, 'ingestion API call retried');
          progress();
        },
      }),
    shopApi: (connector, accessToken) =>
      createShopApi({
        baseUrl: connector.shop.adminUrl,
        apiVersion: connector.shop.apiVersion,
        accessToken,
        ...patience('shop'),
      }),
    websitePatience: () => ({ ...patience('website'), http: options.http }),
    cmsApi: (connector, applicationPassword) =>
      createCmsApi({
        siteUrl: connector.cms.siteUrl,
        ...(connector.cms.username && applicationPassword ? { username: connector.cms.username, applicationPassword } : {}),
        ...patience('cms'),
      }),
  };
}
