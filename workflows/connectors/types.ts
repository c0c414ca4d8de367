/** Inputs and results of the connectors' workflows and activities (plain data: they cross Temporal). */

/** The collection a CMS request lists; the path segment after `/wp/v2/`. */
export type CmsKind = 'posts' | 'pages';

/** Where a shop's products are shown to customers, and in which currency. */
export interface Storefront {
  /** e.g. https://northwind.shop.test, no trailing slash */
  url: string;
  currency: string;
}

export interface ShopSyncInput {
  connectorId: string;
  /** Set when a long sync continues as new: where it was. */
  resume?: { runId: string; storefront: Storefront; cursor: string; pages: number; sent: number };
}

export interface CmsSyncInput {
  connectorId: string;
  resume?: {
    runId: string;
    mode: 'full' | 'incremental';
    modifiedAfter?: string;
    kind: CmsKind;
    page: number;
    pages: number;
    sent: number;
  };
}

export interface WebsiteCrawlInput {
  connectorId: string;
  /** Set when a long crawl continues as new (its frontier is in Redis, so this is all it carries). */
  resume?: { runId: string; deletionsConfirmed: boolean; pages: number; sent: number };
}

/** Why pages were not taken, and what was: a crawl's counts. */
export type CrawlCount =
  | 'found'
  | 'fetched'
  | 'unchanged'
  | 'sent'
  | 'duplicates'
  | 'noindex'
  | 'skippedByRobots'
  | 'outOfScope'
  | 'gone'
  | 'notPages'
  | 'overCap'
  | 'failed'
  /** The most requests seen in flight to one host at once (measured politeness). */
  | 'maxInFlight';

export type CrawlCounts = Partial<Record<CrawlCount, number>> & { failedBy?: Record<string, number> };

/** What the Temporal UI (and `progress` queries) show of a sync in flight. */
export interface SyncProgress {
  runId: string;
  pages: number;
  sent: number;
  /** Shop: the cursor of the next page; CMS: the kind and page number; website: the pages left to fetch. */
  position: string;
  /** Website: the crawl's counts (found, fetched, unchanged, skipped by robots, failed by reason, …). */
  crawl?: CrawlCounts;
}

export interface ShopProductInput {
  connectorId: string;
  productId: string;
}

/** A file of a files source, whose latest change (an upload, a deletion) is to be taken in. */
export interface UploadedFileInput {
  connectorId: string;
  fileId: string;
}

export interface SyncOutcome {
  runId: string;
  mode: 'full' | 'incremental';
  sent: number;
  unchanged: number;
  deleted: number;
}
