/**
 * How a failed answer from the chat provider is described: one AnswerGenerationError whose message
 * names the provider, the model and the reason, never the API key.
 */
import { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai';
import {
  describeAttempts,
  innermostReason,
  isTransientStatus,
  providerMessage,
  rejectionHint,
  redactKey,
  type ProviderContext,
} from '#platform/openai/errors.js';

/** A failed answer, its message naming provider, model and reason, never the API key. */
export class AnswerGenerationError extends Error {
  override readonly name = 'AnswerGenerationError';
  constructor(
    message: string,
    /** The provider's HTTP status, when it answered with one. */
    readonly status?: number,
  ) {
    super(message);
  }
}

/** A failure while the reply was streaming, as opposed to before it started. */
export class StreamBrokenError extends Error {
  constructor(readonly original: unknown) {
    super('The reply stream broke off');
  }
}

/** "The chat provider at <endpoint> <what>", the key redacted. */
export function failure(context: ProviderContext, what: string, status?: number): AnswerGenerationError {
  return new AnswerGenerationError(redactKey(`The chat provider at ${context.endpoint} ${what}`, context.apiKey), status);
}

/**
 * What the SDK or the stream threw, after the SDK's own retries, as an AnswerGenerationError. The
 * SDK's errors are not passed on as causes: they carry the provider's message, which for a bad key
 * quotes part of the key.
 */
export function toGenerationError(thrown: unknown, context: ProviderContext): Error {
  if (thrown instanceof AnswerGenerationError) return thrown;
  const { model, maxRetries, timeoutMs } = context;
  const attempts = describeAttempts(maxRetries);
  const midReply = thrown instanceof StreamBrokenError;
  const error = midReply ? thrown.original : thrown;

  if (error instanceof APIConnectionTimeoutError) {
    return failure(context, `did not answer within ${timeoutMs} ms (${attempts}) for model "${model}"`);
  }
  if (error instanceof APIConnectionError) {
    return failure(context, `could not be reached (${innermostReason(error.cause)}, ${attempts}) for model "${model}"`);
  }
  if (error instanceof APIError && error.status === undefined) {
    return failure(context, `reported an error in the middle of the reply for model "${model}": ${providerMessage(error)}`);
  }
  if (error instanceof APIError) {
    const status = error.status;
    if (status === 401 || status === 403) {
      // A 401 body quotes the key (masked, but still part of it): only a 403's reason is worth showing.
      const reason = status === 403 ? `: ${providerMessage(error)}` : '';
      return failure(
        context,
        `refused the API key for model "${model}" (HTTP ${status})${reason}. Check the configured chat API key and that it may use this model.`,
        status,
      );
    }
    if (isTransientStatus(status)) {
      return failure(context, `answered HTTP ${status} for model "${model}" (${attempts}): ${providerMessage(error)}`, status);
    }
    const hint = rejectionHint(status);
    return failure(
      context,
      `rejected the request for model "${model}" (HTTP ${status}): ${providerMessage(error)}.${hint}`,
      status,
    );
  }
  const reason = innermostReason(error);
  return midReply
    ? failure(context, `broke off the reply for model "${model}" (${reason})`)
    : failure(context, `failed to answer for model "${model}" (${reason})`);
}
