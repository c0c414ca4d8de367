import type { EmbeddingsConfig } from '#platform/config.js';
import type { Embedder, EmbedOptions } from './embedder.js';
import { createHashedEmbedder } from './hashed-embedder.js';
import { defaultMiniLmOptions, loadMiniLmEmbedder, type MiniLmOptions } from './minilm/minilm-embedder.js';
import { defaultModelDir } from './minilm/model-files.js';
import { createOpenAIEmbedder } from './openai-embedder.js';
import { cachingEmbedder } from './query-cache.js';

export { EmbeddingRejectedError, EmbeddingUnavailableError, type Embedder, type EmbeddingSpace, type Lane } from './embedder.js';
export type { OpenAIEmbedderSettings } from './openai-embedder.js';
export { defaultMiniLmOptions, type MiniLmOptions } from './minilm/minilm-embedder.js';

/**
 * The embedder the configuration describes; build it once per process and pass it to whoever embeds.
 * The local model is loaded (and its files checked) here, so a missing or altered model stops the
 * process at start rather than failing its first request.
 */
export async function createEmbedder(settings: EmbeddingsConfig, local: MiniLmOptions = defaultMiniLmOptions): Promise<Embedder> {
  switch (settings.provider) {
    case 'local':
      return loadMiniLmEmbedder(settings.modelDir ?? defaultModelDir(), local);
    case 'hashed':
      return createHashedEmbedder(settings.dimensions);
    case 'openai': {
      const { provider: _provider, ...openai } = settings;
      return createOpenAIEmbedder(openai);
    }
  }
}

export interface ProcessEmbedders {
  /** For chunks: each call says whose change it embeds (`lane`), which the local model serves in that order. */
  documents: Embedder;
  /** For questions and search queries: the local model runs them first, and repeated queries are answered from memory. */
  queries: Embedder;
}

/**
 * The embedder the answerer compares a question with the sentences of its sources by: always the
 * local model, for which the answerer's thresholds were chosen, whatever embeds the chunks (the one
 * already loaded when it is the local model), in the queries' lane. Behind a large cache: a
 * knowledge base's popular passages are asked about again and again, and a chunk's sentences are
 * embedded once, when an answer first reads them (`lib/answering/sentence-memory.ts` keeps them then).
 */
export async function createSentenceEmbedder(
  settings: EmbeddingsConfig,
  embedders: ProcessEmbedders,
  localModelDir = defaultModelDir(),
  local: MiniLmOptions = defaultMiniLmOptions,
): Promise<Embedder> {
  // When the chunks are embedded locally it is the same model, already loaded. A cache of its own: the
  // sentences answers read would push the questions out of the queries' (the question itself is
  // embedded once more for the answer, a short run).
  const model = settings.provider === 'local' ? embedders.documents : await loadMiniLmEmbedder(localModelDir, local);
  return cachingEmbedder(inLane(model, 'query'), { maxEntries: cachedSentences });
}

const cachedQueries = 5000;
// About 3 KB each: questions, and the sentences of the chunks answers read.
const cachedSentences = 20_000;

/**
 * The embedders of one process, over one model. The OpenAI-compatible provider batches each call's
 * texts itself and is left as it is; its repeated queries are cached all the same.
 */
export async function createProcessEmbedders(
  settings: EmbeddingsConfig,
  local: MiniLmOptions = defaultMiniLmOptions,
): Promise<ProcessEmbedders> {
  const model = await createEmbedder(settings, local);
  return { documents: model, queries: cachingEmbedder(inLane(model, 'query'), { maxEntries: cachedQueries }) };
}

/** `embedder` with every call in `lane`. */
function inLane(embedder: Embedder, lane: NonNullable<EmbedOptions['lane']>): Embedder {
  return { ...embedder, embed: (texts) => embedder.embed(texts, { lane }) };
}
