/**
 * The pieces every OpenAI-compatible provider here uses to describe a failed call: what a message
 * needs to know about the call, and the provider's own words, never quoting the API key.
 */
import type { APIError } from 'openai';

/** What a message needs to name the provider and the call, without ever naming the key. */
export interface ProviderContext {
  /** The base URL without credentials or query. */
  endpoint: string;
  model: string;
  apiKey: string;
  maxRetries: number;
  timeoutMs: number;
}

/** How many attempts the SDK made: "1 attempt", "3 attempts". */
export function describeAttempts(maxRetries: number): string {
  return `${maxRetries + 1} attempt${maxRetries === 0 ? '' : 's'}`;
}

/** The statuses the SDK itself retries: a later attempt may succeed. */
export function isTransientStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** What to check when the provider rejected a request: for a 404, the model name and the base URL. */
export function rejectionHint(status: number): string {
  return status === 404 ? ' Check the model name and that the base URL ends in the API version (such as /v1).' : '';
}

/**
 * `text` with the API key replaced. Servers sometimes echo what they were sent; a key of a few
 * characters could not be told apart from ordinary text, so only a real-looking key is searched for.
 */
export function redactKey(text: string, apiKey: string): string {
  return apiKey.length >= 8 ? text.replaceAll(apiKey, '[redacted]') : text;
}

/**
 * The provider's message from its error body (the SDK's when there is none), at most 500
 * characters and without a closing full stop; with `apiKey`, redacted first.
 */
export function providerMessage(error: APIError, apiKey?: string): string {
  const body = error.error as { message?: unknown } | undefined;
  const message = typeof body?.message === 'string' ? body.message : error.message;
  const redacted = apiKey === undefined ? message : redactKey(message, apiKey);
  return (redacted.length > 500 ? `${redacted.slice(0, 500)}…` : redacted).replace(/\.$/, '');
}

/**
 * The innermost reason under fetch's "fetch failed" or "terminated", such as "connect ECONNREFUSED
 * 10.0.0.5:443" or "other side closed"; what was thrown, as text, when it is not an Error.
 */
export function innermostReason(error: unknown): string {
  let reason = error instanceof Error ? error.message || 'connection failed' : String(error);
  for (let current = error; current instanceof Error; current = current.cause) reason = current.message || reason;
  return reason;
}

/** The innermost reason under a connection error's cause; "connection failed" when it has none. */
export function connectionFailureReason(cause: unknown): string {
  return cause instanceof Error ? innermostReason(cause) : 'connection failed';
}
