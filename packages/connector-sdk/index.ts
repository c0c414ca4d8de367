/**
 * Connector SDK for the knowledge-base assistant's public ingestion API. Only Node built-ins, so it can be
 * lifted out of this repository as it is.
 */
export { contentHash } from './content-hash.js';
export { createIngestionClient } from './ingestion-client.js';
export type { IngestAllOptions, IngestionClient, IngestionClientOptions } from './ingestion-client.js';
export { fullSync } from './full-sync.js';
export type { FullSyncOptions, FullSyncResult, SyncItem } from './full-sync.js';
export {
  BASE_DELAY_MS,
  isRetryable,
  MAX_DELAY_MS,
  MAX_JITTER_MS,
  MAX_RETRIES,
  parseRetryAfter,
  retryDelayMs,
} from './retry-policy.js';
export { assertBatchSize, chunk, MAX_BATCH_SIZE, MAX_BULK_ITEMS, MIN_BATCH_SIZE } from './batches.js';
export { BatchIngestionError, IngestionApiError, IngestionNetworkError } from './errors.js';
export type { ErrorDetail, FailedBatch } from './errors.js';
export type * from './types.js';
