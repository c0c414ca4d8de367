import { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai';
import {
  connectionFailureReason,
  describeAttempts,
  isTransientStatus,
  providerMessage,
  rejectionHint,
  type ProviderContext,
} from '#platform/openai/errors.js';
import { EmbeddingRejectedError, EmbeddingUnavailableError } from './embedder.js';

/**
 * Sorts what the SDK threw, after its own retries, into the two kinds the pipeline acts on: a
 * refusal that retrying cannot fix (EmbeddingRejectedError) and anything worth retrying later
 * (EmbeddingUnavailableError, an ordinary Error). The SDK's error objects themselves are not passed
 * on as causes: they carry the provider's message, which for a bad key quotes part of the key.
 */
export function toEmbeddingError(error: unknown, context: ProviderContext): Error {
  const { endpoint, model, maxRetries, timeoutMs } = context;
  const attempts = describeAttempts(maxRetries);
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
  const hint = rejectionHint(status);
  return new EmbeddingRejectedError(
    'embedding_rejected',
    `The embeddings provider at ${endpoint} rejected the request for model "${model}" (HTTP ${status}): ` +
      `${providerMessage(error, context.apiKey)}.${hint}`,
  );
}
