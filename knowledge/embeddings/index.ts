import type { EmbeddingsConfig } from '#platform/config.js';
import type { Embedder } from './embedder.js';
import { coalescingEmbedder } from './coalescing-embedder.js';
import { createHashedEmbedder } from './hashed-embedder.js';
import { loadMiniLmEmbedder } from './minilm/minilm-embedder.js';
import { defaultModelDir } from './minilm/model-files.js';
import { createOpenAIEmbedder } from './openai-embedder.js';
import { cachingEmbedder } from './query-cache.js';

export { EmbeddingRejectedError, EmbeddingUnavailableError, type Embedder, type EmbeddingSpace } from './embedder.js';
export type { OpenAIEmbedderSettings } from './openai-embedder.js';

/**
 * The embedder the configuration describes; build it once per process and pass it to whoever embeds.
 * The local model is loaded (and its files checked) here, so a missing or altered model stops the
 * process at start rather than failing its first request.
 */
export async function createEmbedder(settings: EmbeddingsConfig): Promise<Embedder> {
  switch (settings.provider) {
    case 'local':
      return loadMiniLmEmbedder(settings.modelDir ?? defaultModelDir());
    case 'hashed':
      return createHashedEmbedder(settings.dimensions);
    case 'openai': {
      const { provider: _provider, ...openai } = settings;
      return createOpenAIEmbedder(openai);
    }
  }
}

export interface ProcessEmbedders {
  /** For chunks: the local model's calls of concurrent activities are coalesced into shared runs. */
  documents: Embedder;
  /** For questions and search queries: runs of their own, and repeated queries are answered from memory. */
  queries: Embedder;
}

/** The local model as the answerer compares sentences with it (the composer and the evidence rule). */
export interface SentenceEmbedders {
  /** For the sentences of new chunks, embedded once at ingestion and stored beside them. */
  ingestion: Embedder;
  /** For answers: the question, and sentences of chunks stored without their vectors, behind a cache (the queries' own when the chunks are embedded locally). */
  answering: Embedder;
}

/**
 * The embedders sentences are compared with: always the local model, for which the answerer's
 * thresholds were chosen, whatever embeds the chunks (the one already loaded when it is the local
 * model). Answering keeps a large cache: a knowledge base's popular passages are asked about again
 * and again.
 */
export async function createSentenceEmbedders(
  settings: EmbeddingsConfig,
  embedders: ProcessEmbedders,
  localModelDir = defaultModelDir(),
): Promise<SentenceEmbedders> {
  // When the chunks are embedded locally it is the same model: an answer's question, embedded for
  // retrieval, is then found in the queries' cache.
  if (settings.provider === 'local') return { ingestion: embedders.documents, answering: embedders.queries };
  const model = await loadMiniLmEmbedder(localModelDir);
  return {
    ingestion: coalescingEmbedder(model, forDocuments),
    answering: cachingEmbedder(coalescingEmbedder(model, forQueries), { maxEntries: cachedSentences }),
  };
}

/**
 * Batched runs of at most this many texts (the local model groups them by length into runs of 16).
 * Documents wait up to 2 ms for company while the model is idle; queries, which a visitor waits for,
 * only for the calls of the same turn, and have runs of their own, so a question is never queued
 * behind an ingestion's chunks.
 */
const forDocuments = { maxBatch: 32, maxWaitMs: 2 };
const forQueries = { maxBatch: 32, maxWaitMs: 0 };
const cachedQueries = 5000;
// About 3 KB each: questions, and sentences of chunks stored without their vectors.
const cachedSentences = 20_000;

/**
 * The embedders of one process, over one model. The OpenAI-compatible provider batches each call's
 * texts itself and is left as it is; its repeated queries are cached all the same.
 */
export async function createProcessEmbedders(settings: EmbeddingsConfig): Promise<ProcessEmbedders> {
  const model = await createEmbedder(settings);
  if (settings.provider !== 'local') return { documents: model, queries: cachingEmbedder(model, { maxEntries: cachedQueries }) };
  return {
    documents: coalescingEmbedder(model, forDocuments),
    queries: cachingEmbedder(coalescingEmbedder(model, forQueries), { maxEntries: cachedQueries }),
  };
}
