import type { EmbeddingsConfig } from '#platform/config.js';
import type { Embedder } from './embedder.js';
import { createLocalEmbedder } from './local-embedder.js';
import { createOpenAIEmbedder } from './openai-embedder.js';

export { EmbeddingRejectedError, EmbeddingUnavailableError, type Embedder, type EmbeddingSpace } from './embedder.js';
export type { OpenAIEmbedderSettings } from './openai-embedder.js';

/** The embedder the configuration describes; build it once per process and pass it to whoever embeds. */
export function createEmbedder(settings: EmbeddingsConfig): Embedder {
  switch (settings.provider) {
    case 'local':
      return createLocalEmbedder(settings.dimensions);
    case 'openai': {
      const { provider: _provider, ...openai } = settings;
      return createOpenAIEmbedder(openai);
    }
  }
}
