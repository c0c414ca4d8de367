import type { IngestProgress } from './types.js';

/** One problem in a validation error's `details`, as the service lists them. */
export interface ErrorDetail {
  path?: string;
  message?: string;
  [key: string]: unknown;
}

/**
 * A response the client will not (or may no longer) retry, carrying the service's error body
 * `{"error": {"code", "message", "details"}}` so a connector can act on `code` rather than parse text.
 */
export class IngestionApiError extends Error {
  override readonly name = 'IngestionApiError';
  readonly status: number;
  readonly code: string;
  readonly details: ErrorDetail[] | undefined;
  /** The service's `x-request-id`, worth quoting to support. */
  readonly requestId: string | undefined;

  constructor(init: { status: number; code: string; message: string; details?: ErrorDetail[]; requestId?: string }) {
    super(init.message);
    this.status = init.status;
    this.code = init.code;
    this.details = init.details;
    this.requestId = init.requestId;
  }
}

/** No response at all (DNS, refused connection, reset) on every attempt; `cause` is the last failure. */
export class IngestionNetworkError extends Error {
  override readonly name = 'IngestionNetworkError';
  constructor(message: string, options: { cause: unknown }) {
    super(message, options);
  }
}

export interface FailedBatch {
  /** 0-based index of the bulk call. */
  batch: number;
  externalIds: string[];
  error: unknown;
}

/**
 * Some bulk calls failed for good. The accepted batches stay queued (their `jobIds` are here), so a rerun
 * only needs to resend `failures`; `fullSync` throws this before cleanup so a partial view deletes nothing.
 */
export class BatchIngestionError extends Error {
  override readonly name = 'BatchIngestionError';
  constructor(
    readonly failures: FailedBatch[],
    readonly jobIds: string[],
    readonly progress: IngestProgress,
  ) {
    const first = failures[0]?.error;
    const reason = first instanceof Error ? `: ${first.message}` : '';
    super(`${failures.length} of ${progress.batches} bulk ingestion batches failed${reason}`, { cause: first });
  }
}
