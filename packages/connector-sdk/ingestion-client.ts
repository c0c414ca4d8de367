import { setTimeout as delay } from 'node:timers/promises';
import { assertBulkSize, MAX_BATCH_SIZE, sendInBatches } from './batches.js';
import { contentHash } from './content-hash.js';
import { IngestionApiError, IngestionNetworkError, type ErrorDetail } from './errors.js';
import { isRetryable, MAX_RETRIES, retryDelayMs } from './retry-policy.js';
import type {
  BulkIngestResponse,
  CleanupRequest,
  CleanupResponse,
  CleanupRunning,
  IngestionItem,
  IngestResponse,
  JobStatusResponse,
  ProgressListener,
  RetryEvent,
} from './types.js';

export interface IngestionClientOptions {
  /** Service root, e.g. `https://kb.example.com`; a trailing slash is ignored. */
  baseUrl: string;
  /** A key with the `iq:import` scope, sent as `x-api-key`. Server-side only. */
  apiKey: string;
  /** Injected for tests or proxies; defaults to the global `fetch`. */
  fetch?: typeof fetch;
  /** Waits between retries; injected so tests need not sleep. */
  sleep?: (ms: number) => Promise<unknown>;
  /** Jitter source in [0, 1); injected so delays are deterministic in tests. */
  random?: () => number;
  /** Told before each retry (for logging or metrics). */
  onRetry?: (event: RetryEvent) => void;
}

export interface IngestAllOptions {
  /** Items per bulk call, 50 to 100 (the published recommendation). */
  batchSize?: number;
  onProgress?: ProgressListener;
}

export interface IngestionClient {
  ingest(item: IngestionItem): Promise<IngestResponse>;
  /** One bulk call of 1 to 100 items. */
  ingestBulk(items: IngestionItem[]): Promise<BulkIngestResponse>;
  cleanup(request: CleanupRequest): Promise<CleanupResponse>;
  jobStatus(jobId: string): Promise<JobStatusResponse>;
  /** Any number of items as bulk calls of `batchSize`; resolves to every job id. */
  ingestAll(items: AsyncIterable<IngestionItem> | Iterable<IngestionItem>, options?: IngestAllOptions): Promise<string[]>;
}

export function createIngestionClient(options: IngestionClientOptions): IngestionClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const fetchFn = options.fetch ?? globalThis.fetch;
  const sleep = options.sleep ?? ((ms: number) => delay(ms));
  const random = options.random ?? Math.random;

  async function request<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    return (await send<T>(method, path, body)).body;
  }

  /** The request, retried as the retry policy says; a success's status, body and headers. */
  async function send<T>(
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: T; headers: Headers }> {
    const init: RequestInit = {
      method,
      headers: {
        'x-api-key': options.apiKey,
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    };

    for (let retry = 0; ; retry += 1) {
      let response: Response;
      try {
        response = await fetchFn(`${baseUrl}${path}`, init);
      } catch (error) {
        if (retry >= MAX_RETRIES) {
          throw new IngestionNetworkError(`${method} ${path} failed without a response after ${retry + 1} attempts`, {
            cause: error,
          });
        }
        const delayMs = retryDelayMs(retry + 1, random);
        options.onRetry?.({ method, path, retry: retry + 1, delayMs, error });
        await sleep(delayMs);
        continue;
      }

      if (response.ok)
        return { status: response.status, body: (await readSuccess(response, method, path)) as T, headers: response.headers };
      if (!isRetryable(response.status) || retry >= MAX_RETRIES) throw await toApiError(response, method, path);

      // Drain the body so the connection can be reused while we wait.
      await response.arrayBuffer().catch(() => undefined);
      const delayMs = retryDelayMs(retry + 1, random, response.headers.get('retry-after'));
      options.onRetry?.({ method, path, retry: retry + 1, delayMs, status: response.status });
      await sleep(delayMs);
    }
  }

  const client: IngestionClient = {
    ingest: (item) => request<IngestResponse>('POST', '/ingest', withHash(item)),

    async ingestBulk(items) {
      assertBulkSize(items.length);
      return request<BulkIngestResponse>('POST', '/ingest/bulk', { items: items.map(withHash) });
    },

    /**
     * A cleanup the service has not finished within its wait answers 202 (an extension of the
     * published interface): its `statusUrl` is polled, `Retry-After` (else 5 s) apart, until 200.
     */
    async cleanup(cleanupRequest) {
      let answer = await send<CleanupResponse | CleanupRunning>('POST', '/ingest/cleanup', {
        knowledgeBaseId: cleanupRequest.knowledgeBaseId,
        sourceOrigin: cleanupRequest.sourceOrigin,
        keepExternalIds: cleanupRequest.keepExternalIds,
      });
      while (answer.status === 202) {
        const { statusUrl } = answer.body as CleanupRunning;
        await sleep(pollDelayMs(answer.headers.get('retry-after')));
        answer = await send<CleanupResponse | CleanupRunning>('GET', statusUrl);
      }
      return answer.body as CleanupResponse;
    },

    jobStatus: (jobId) => request<JobStatusResponse>('GET', `/ingest/jobs/${encodeURIComponent(jobId)}`),

    ingestAll: (items, ingestOptions = {}) =>
      sendInBatches({
        ingestBulk: (batch) => client.ingestBulk(batch),
        items,
        batchSize: ingestOptions.batchSize ?? MAX_BATCH_SIZE,
        total: Array.isArray(items) ? items.length : undefined,
        onProgress: ingestOptions.onProgress,
      }),
  };
  return client;
}

/** How long to wait before asking about a running cleanup again: its Retry-After, else 5 s (at most a minute). */
function pollDelayMs(retryAfter: string | null): number {
  const seconds = Number(retryAfter);
  return retryAfter && Number.isFinite(seconds) && seconds >= 0 ? Math.min(seconds, 60) * 1000 : 5_000;
}

/** A copy of the item with `data.hash` filled when the caller gave none; the caller's object is left alone. */
function withHash(item: IngestionItem): IngestionItem {
  if (item.data.hash) return item;
  return { ...item, data: { ...item.data, hash: contentHash(item.data.title, item.data.content) } };
}

async function readSuccess(response: Response, method: string, path: string): Promise<unknown> {
  const text = await response.text();
  try {
    return JSON.parse(text);
  } catch {
    throw new IngestionApiError({
      status: response.status,
      code: 'invalid_response',
      message: `${method} ${path} answered ${response.status} with a body that is not JSON`,
      ...requestIdOf(response),
    });
  }
}

/** Reads `{"error": {code, message, details}}`; any other body still yields a usable error. */
async function toApiError(response: Response, method: string, path: string): Promise<IngestionApiError> {
  const text = await response.text().catch(() => '');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const error = isObject(parsed) && isObject(parsed.error) ? parsed.error : undefined;
  const code = typeof error?.code === 'string' ? error.code : `http_${response.status}`;
  const snippet = text.trim().slice(0, 200);
  const message =
    typeof error?.message === 'string'
      ? error.message
      : `${method} ${path} failed with HTTP ${response.status}${snippet ? `: ${snippet}` : ''}`;
  const details = Array.isArray(error?.details) ? (error.details as ErrorDetail[]) : undefined;
  return new IngestionApiError({
    status: response.status,
    code,
    message,
    ...(details ? { details } : {}),
    ...requestIdOf(response),
  });
}

function requestIdOf(response: Response): { requestId?: string } {
  const requestId = response.headers.get('x-request-id');
  return requestId ? { requestId } : {};
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
