import { BatchIngestionError, IngestionApiError, IngestionNetworkError, type FailedBatch } from './errors.js';
import type { BulkIngestResponse, IngestionItem, IngestProgress, ProgressListener } from './types.js';

/** The published recommendation is 50 to 100 items per bulk request; the SDK holds callers to it. */
export const MIN_BATCH_SIZE = 50;
export const MAX_BATCH_SIZE = 100;
/** Hard limits of one `ingestBulk` call (a single short batch, e.g. the tail of a sync, is fine). */
export const MIN_BULK_ITEMS = 1;
export const MAX_BULK_ITEMS = 100;

export function assertBatchSize(batchSize: number): void {
  if (!Number.isInteger(batchSize) || batchSize < MIN_BATCH_SIZE || batchSize > MAX_BATCH_SIZE) {
    throw new RangeError(
      `batchSize must be an integer from ${MIN_BATCH_SIZE} to ${MAX_BATCH_SIZE} (the recommended bulk size), got ${batchSize}`,
    );
  }
}

export function assertBulkSize(count: number): void {
  if (count < MIN_BULK_ITEMS || count > MAX_BULK_ITEMS) {
    throw new RangeError(
      `ingestBulk takes ${MIN_BULK_ITEMS} to ${MAX_BULK_ITEMS} items per call, got ${count}; use ingestAll to split larger sets`,
    );
  }
}

/** Groups a sync or async source into arrays of `size`, pulling lazily so a large catalogue is never held whole. */
export async function* chunk<T>(items: AsyncIterable<T> | Iterable<T>, size: number): AsyncGenerator<T[]> {
  let batch: T[] = [];
  for await (const item of items) {
    batch.push(item);
    if (batch.length === size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

export interface SendInBatchesOptions {
  ingestBulk: (items: IngestionItem[]) => Promise<BulkIngestResponse>;
  items: AsyncIterable<IngestionItem> | Iterable<IngestionItem>;
  batchSize: number;
  /** Known for arrays; undefined for streamed sources. */
  total: number | undefined;
  onProgress?: ProgressListener | undefined;
}

/**
 * Sends `items` as bulk calls of `batchSize` and returns every job id.
 *
 * A batch that fails for good (after the client's retries) is recorded and the next one is sent, because
 * a validation error in one batch says nothing about the others. Auth failures (401, 403) and network
 * failures stop at once: every later batch would fail the same way. Any failure ends in a
 * `BatchIngestionError` carrying the failed batches and the job ids that were accepted.
 */
export async function sendInBatches(options: SendInBatchesOptions): Promise<string[]> {
  assertBatchSize(options.batchSize);
  const jobIds: string[] = [];
  const failures: FailedBatch[] = [];
  const progress: IngestProgress = { sent: 0, total: options.total, batches: 0 };

  for await (const batch of chunk(options.items, options.batchSize)) {
    const index = progress.batches;
    progress.batches += 1;
    try {
      const response = await options.ingestBulk(batch);
      jobIds.push(...response.jobIds);
      progress.sent += batch.length;
    } catch (error) {
      failures.push({ batch: index, externalIds: batch.map((item) => item.externalId), error });
      progress.failedBatches = failures.length;
      options.onProgress?.({ ...progress });
      if (stopsEveryBatch(error)) break;
      continue;
    }
    options.onProgress?.({ ...progress });
  }

  if (failures.length > 0) throw new BatchIngestionError(failures, jobIds, { ...progress });
  return jobIds;
}

function stopsEveryBatch(error: unknown): boolean {
  if (error instanceof IngestionNetworkError) return true;
  return error instanceof IngestionApiError && (error.status === 401 || error.status === 403);
}
