/**
 * The OpenAI SDK client as every OpenAI-compatible provider here builds it, and the checks on the
 * settings it is built from.
 */
import OpenAI from 'openai';

/** Which settings a message names: "The chat setting …", "The embeddings base URL …". */
export type OpenAIService = 'chat' | 'embeddings';

export interface OpenAIClientSettings {
  /** The API root including its version, as the SDK expects: https://api.openai.com/v1. */
  baseUrl: string;
  apiKey: string;
  /** Retries of a 408/409/429/5xx or a failed connection, by the SDK with its backoff and Retry-After. */
  maxRetries: number;
  /** Per attempt. */
  timeoutMs: number;
}

export function createOpenAIClient({ baseUrl, apiKey, maxRetries, timeoutMs }: OpenAIClientSettings): OpenAI {
  // Every option given explicitly: left out, the SDK would fill them from OPENAI_* environment
  // variables, and only process entries read the environment. Its logging goes to the console, so
  // it is off; failures come back as errors instead.
  return new OpenAI({
    apiKey,
    baseURL: baseUrl,
    organization: null,
    project: null,
    webhookSecret: null,
    maxRetries,
    timeout: timeoutMs,
    logLevel: 'off',
  });
}

/** The base URL as messages may show it: no user name, password or query string. */
export function describeEndpoint(service: OpenAIService, baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new RangeError(`The ${service} base URL must be an absolute http(s) URL such as https://api.openai.com/v1`);
  }
  return `${url.origin}${url.pathname.replace(/\/$/, '')}`;
}

/** Refuses a setting that is not a whole number from `min` (to `max`, when given). */
export function requireWholeNumber(service: OpenAIService, name: string, value: number, min: number, max?: number): void {
  if (!Number.isInteger(value) || value < min || (max !== undefined && value > max)) {
    const range = max === undefined ? `of at least ${min}` : `from ${min} to ${max}`;
    throw new RangeError(`The ${service} setting ${name} must be a whole number ${range}, not ${value}`);
  }
}
