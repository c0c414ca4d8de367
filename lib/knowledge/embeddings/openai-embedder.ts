import type { CreateEmbeddingResponse } from 'openai/resources/embeddings';
import { createOpenAIClient, describeEndpoint, requireWholeNumber } from '#platform/openai/client.js';
import type { ProviderContext } from '#platform/openai/errors.js';
import { EmbeddingRejectedError, type Embedder, type EmbeddingSpace } from './embedder.js';
import { toEmbeddingError } from './openai-errors.js';

export interface OpenAIEmbedderSettings {
  /** The API root including its version, as the SDK expects: https://api.openai.com/v1. */
  baseUrl: string;
  model: string;
  apiKey: string;
  /** The length every vector must have: the Weaviate collection was made for it. */
  dimensions: number;
  /** Texts per request (OpenAI accepts up to 2048). */
  batchSize?: number;
  /**
   * Ask the model for `dimensions` (text-embedding-3 models shorten their vectors). Off by default
   * because some compatible servers refuse the parameter.
   */
  sendDimensions?: boolean;
  /** Retries of a 408/409/429/5xx or a failed connection, by the SDK with its backoff and Retry-After. */
  maxRetries?: number;
  /** Per attempt. */
  timeoutMs?: number;
}

export const defaultBatchSize = 64;
export const defaultMaxRetries = 4;
export const defaultTimeoutMs = 30_000;
const maxBatchSize = 2048;

/** An embedder for OpenAI's `/v1/embeddings` or any server that speaks it. */
export function createOpenAIEmbedder(settings: OpenAIEmbedderSettings): Embedder {
  const { model, apiKey, dimensions, sendDimensions = false } = settings;
  const batchSize = settings.batchSize ?? defaultBatchSize;
  const maxRetries = settings.maxRetries ?? defaultMaxRetries;
  const timeoutMs = settings.timeoutMs ?? defaultTimeoutMs;
  requireWholeNumber('embeddings', 'dimensions', dimensions, 1);
  requireWholeNumber('embeddings', 'batchSize', batchSize, 1, maxBatchSize);
  requireWholeNumber('embeddings', 'maxRetries', maxRetries, 0);
  requireWholeNumber('embeddings', 'timeoutMs', timeoutMs, 1);

  const endpoint = describeEndpoint('embeddings', settings.baseUrl);
  const context: ProviderContext = { endpoint, model, apiKey, maxRetries, timeoutMs };
  const client = createOpenAIClient({ baseUrl: settings.baseUrl, apiKey, maxRetries, timeoutMs });
  const space: EmbeddingSpace = { provider: 'openai', model, dimensions };

  async function embedBatch(batch: string[]): Promise<number[][]> {
    let response: CreateEmbeddingResponse;
    try {
      response = await client.embeddings.create({
        model,
        input: batch,
        // Asked for explicitly: left out, the SDK asks for base64, which not every compatible server speaks.
        encoding_format: 'float',
        ...(sendDimensions ? { dimensions } : {}),
      });
    } catch (error) {
      throw toEmbeddingError(error, context);
    }
    return vectorsInInputOrder(response, batch.length, context, dimensions);
  }

  return {
    space,
    async embed(texts) {
      const empty = texts.findIndex((text) => text.length === 0);
      if (empty >= 0) {
        throw new EmbeddingRejectedError(
          'embedding_empty_input',
          `The text at index ${empty} (of ${texts.length}) is empty, and embedding providers refuse empty input: leave empty texts out before embedding.`,
        );
      }
      const vectors: number[][] = [];
      // One batch at a time: the worker already runs many activities at once, and sequential calls
      // keep each one's share of the provider's rate limit predictable.
      for (let start = 0; start < texts.length; start += batchSize) {
        vectors.push(...(await embedBatch(texts.slice(start, start + batchSize))));
      }
      return vectors;
    },
  };
}

/** Puts the vectors back in input order by their `index`, checking there is exactly one of the right length per text. */
function vectorsInInputOrder(
  response: CreateEmbeddingResponse,
  count: number,
  context: ProviderContext,
  dimensions: number,
): number[][] {
  const { endpoint, model } = context;
  const vectors = new Array<number[] | undefined>(count);
  for (const item of response.data ?? []) {
    const { index, embedding } = item;
    if (!Number.isInteger(index) || index < 0 || index >= count || vectors[index] !== undefined || !Array.isArray(embedding)) {
      throw invalidResponse(context, `an item with index ${index} that does not match one of the ${count} texts sent`);
    }
    if (embedding.length !== dimensions) {
      throw new EmbeddingRejectedError(
        'embedding_dimension_mismatch',
        `The embeddings model "${model}" at ${endpoint} returned vectors of ${embedding.length} dimensions, but ${dimensions} are ` +
          `expected: configure ${embedding.length} dimensions for this model (which means a new collection), ` +
          'or have the model shorten its vectors by sending the dimensions parameter, if it supports that.',
      );
    }
    vectors[index] = embedding;
  }
  const missing = vectors.findIndex((vector) => vector === undefined);
  if (missing >= 0) throw invalidResponse(context, `no vector for text ${missing} of ${count}`);
  return vectors as number[][];
}

function invalidResponse(context: ProviderContext, what: string): EmbeddingRejectedError {
  return new EmbeddingRejectedError(
    'embedding_invalid_response',
    `The embeddings provider at ${context.endpoint} answered with ${what} for model "${context.model}": ` +
      'it does not behave like the OpenAI embeddings API.',
  );
}
