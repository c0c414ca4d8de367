/**
 * Shapes of the public ingestion API (service-interface.md "Ingestion item", "Ingestion responses",
 * "Cleanup request"; contract.md for job status). Kept as plain types so a connector can build items
 * without touching the client.
 */

/** The values the published interface shows; other strings are passed through unchanged. */
export type SourceType = 'PRODUCT' | 'ARTICLE' | 'SERVICE' | 'PERSON' | 'PAGE' | (string & {});

export interface IngestionData {
  title: string;
  /** The text the assistant answers from; this is what is embedded. */
  content: string;
  /** Canonical URL of the original item, used in citations. */
  url?: string;
  metadata?: Record<string, unknown>;
  sourceData?: Record<string, unknown>;
  /** SHA-256 hex content hash; the client fills it with `contentHash(title, content)` when absent. */
  hash?: string;
}

export interface IngestionOptions {
  /** Re-process even when the hash is unchanged (after an embedding-model change, say). */
  forceRefresh?: boolean;
  /** `high` for user-triggered imports, `low` for background syncs. */
  priority?: 'high' | 'low';
  /** Replace `url`, `metadata` and `sourceData` without re-embedding. */
  metadataOnly?: boolean;
}

export interface IngestionItem {
  integrationId: string;
  /** When omitted the tenant's default knowledge base is used. */
  knowledgeBaseId?: string;
  sourceType: SourceType;
  /** Stable id in the caller's system; the job id is `${integrationId}-${externalId}`. */
  externalId: string;
  /** Origin tag of the connector; scopes cleanup. */
  sourceOrigin?: string;
  data: IngestionData;
  options?: IngestionOptions;
}

export interface IngestResponse {
  status: 'queued';
  jobId: string;
}

export interface BulkIngestResponse {
  status: 'queued';
  jobCount: number;
  /** Queueing estimate at 10 items per second, e.g. `"10s"`; not embedding time. */
  estimatedTime: string;
  jobIds: string[];
}

export interface CleanupRequest {
  knowledgeBaseId: string;
  sourceOrigin: string;
  /** External ids that still exist; an empty list deletes every source of that origin. */
  keepExternalIds: string[];
}

export interface CleanupResponse {
  deleted: number;
  orphanedExternalIds: string[];
}

/** The service's extension: a cleanup not over within its wait answers 202 with this, to poll. */
export interface CleanupRunning {
  status: 'running';
  cleanupId: string;
  /** A path on the service: GET it for 200 (the CleanupResponse) or 202 (still running). */
  statusUrl: string;
}

export type JobState = 'queued' | 'processing' | 'searchable' | 'skipped' | 'metadata_updated' | 'failed' | 'deleted';

export interface JobStatusResponse {
  jobId: string;
  status: JobState;
  knowledgeBaseId: string;
  /** ISO 8601 UTC with milliseconds. */
  updatedAt: string;
  error?: string;
}

/** Reported after each bulk call of `ingestAll` or `fullSync`. */
export interface IngestProgress {
  /** Items in batches the service accepted so far. */
  sent: number;
  /** All items, when known up front (an array); `undefined` while streaming an async source. */
  total: number | undefined;
  /** Bulk calls made so far, failed ones included. */
  batches: number;
  /** Bulk calls that failed for good (after retries); present once one has. */
  failedBatches?: number;
}

export type ProgressListener = (progress: IngestProgress) => void;

/** What the client tells `onRetry` before it waits and tries again. */
export interface RetryEvent {
  method: string;
  path: string;
  /** 1 for the first retry, up to 3. */
  retry: number;
  delayMs: number;
  /** The retryable HTTP status, or undefined for a network failure. */
  status?: number;
  error?: unknown;
}
