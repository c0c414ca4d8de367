import { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai';
import { EmbeddingRejectedError, EmbeddingUnavailableError } from './embedder.js';

/** What a message needs to name the provider and the call, without ever naming the key. */
export interface ProviderContext {
  /** The base URL without credentials or query. */
  endpoint: string;
  model: string;
  apiKey: string;
  maxRetries: number;
  timeoutMs: number;
}

/**
 * Sorts what the SDK threw, after its own retries, into the two kinds the pipeline acts on: a
 * refusal that retrying cannot fix (EmbeddingRejectedError) and anything worth retrying later
 * (EmbeddingUnavailableError, an ordinary Error). The SDK's error objects themselves are not passed
 * on as causes: they carry the provider's message, which for a bad key quotes part of the key.
 */
export function toEmbeddingError(error: unknown, context: ProviderContext): Error {
  const { endpoint, model, maxRetries, timeoutMs } = context;
  const attempts = `${maxRetries + 1} attempt${maxRetries === 0 ? '' : 's'}`;
  if (error instanceof APIConnectionTimeoutError) {
    return new EmbeddingUnavailableError(
      `The embeddings provider at ${endpoint} did not answer within ${timeoutMs} ms (${attempts}) for model "${model}"`,
    );
  }
  if (error instanceof APIConnectionError) {
    const cause = error.cause;
    return new EmbeddingUnavailableError(
      `Could not reach the embeddings provider at ${endpoint} (${connectionFailureReason(cause)}, ${attempts})`,
      undefined,
      cause === undefined ? undefined : { cause },
    );
  }
  if (!(error instanceof APIError) || error.status === undefined) {
    return error instanceof Error ? error : new Error(String(error));
  }

  const status = error.status;
  if (status === 401 || status === 403) {
    // A 401 body quotes the key (masked, but still part of it): only a 403's reason is worth showing.
    const reason = status === 403 ? `: ${providerMessage(error, context.apiKey)}` : '';
    return new EmbeddingRejectedError(
      'embedding_unauthorized',
      `The embeddings provider at ${endpoint} refused the API key for model "${model}" (HTTP ${status})${reason}. ` +
        'Check the configured embeddings API key and that it may use this model.',
    );
  }
  if (isTransientStatus(status)) {
    return new EmbeddingUnavailableError(
      `The embeddings provider at ${endpoint} answered HTTP ${status} for model "${model}" ` +
        `(${attempts}): ${providerMessage(error, context.apiKey)}`,
      status,
    );
  }
  const hint = status === 404 ? ' Check the model name and that the base URL ends in the API version (such as /v1).' : '';
  return new EmbeddingRejectedError(
    'embedding_rejected',
    `The embeddings provider at ${endpoint} rejected the request for model "${model}" (HTTP ${status}): ` +
      `${providerMessage(error, context.apiKey)}.${hint}`,
  );
}

/** The statuses the SDK itself retries: a later attempt may succeed. */
function isTransientStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

function providerMessage(error: APIError, apiKey: string): string {
  const body = error.error as { message?: unknown } | undefined;
  const message = typeof body?.message === 'string' ? body.message : error.message;
  // Servers sometimes echo what they were sent; a key of a few characters could not be told apart
  // from ordinary text, so only a real-looking key is searched for.
  const redacted = apiKey.length >= 8 ? message.replaceAll(apiKey, '[redacted]') : message;
  return (redacted.length > 500 ? `${redacted.slice(0, 500)}…` : redacted).replace(/\.$/, '');
}

/** The innermost reason under fetch's "fetch failed", such as "connect ECONNREFUSED 10.0.0.5:443" or "other side closed". */
function connectionFailureReason(cause: unknown): string {
  let reason = 'connection failed';
  for (let current = cause; current instanceof Error; current = current.cause) reason = current.message || reason;
  return reason;
}
