import type { Embedder } from './embedder.js';
import { createLocalEmbedder } from './local-embedder.js';
import { createOpenAIEmbedder, type OpenAIEmbedderSettings } from './openai-embedder.js';

export { EmbeddingRejectedError, EmbeddingUnavailableError, type Embedder, type EmbeddingSpace } from './embedder.js';
export type { OpenAIEmbedderSettings } from './openai-embedder.js';

/** Which embedder to use, as the process entry reads it from its configuration. */
export type EmbedderSettings =
  | { provider: 'local'; dimensions: number }
  | ({ provider: 'openai'; batchSize: number; sendDimensions: boolean } & OpenAIEmbedderSettings);

/** The embedder the settings describe; build it once per process and pass it to whoever embeds. */
export function createEmbedder(settings: EmbedderSettings): Embedder {
  switch (settings.provider) {
    case 'local':
      return createLocalEmbedder(settings.dimensions);
    case 'openai': {
      const { provider: _provider, ...openai } = settings;
      return createOpenAIEmbedder(openai);
    }
  }
}
