import type { AnswersConfig } from '#platform/config.js';
import { createExtractiveComposer } from './extractive/composer.js';
import type { SentenceEmbedder } from './extractive/scoring.js';
import { createOpenAIGenerator } from './llm/openai-generator.js';
import type { AnswerGenerator } from './types.js';
import { withFallback } from './with-fallback.js';

export { answerRetrieval, createQuestionAnswerer, type AnswerQuestion } from './answer-question.js';
export { createSentenceMemory } from './sentence-memory.js';
export type { AnswerGenerator } from './types.js';
export type { SentenceEmbedder } from './extractive/scoring.js';

/**
 * The answer generator the configuration describes: the extractive composer, or an OpenAI-compatible
 * chat model that falls back to the composer (with a logged warning) whenever it fails. The composer
 * compares sentences with `sentenceEmbedder`, all-MiniLM-L6-v2 (`loadMiniLmEmbedder`), for which its
 * thresholds were chosen; built once per process. `onFallback` is told of each fallback (the metrics).
 */
export function createAnswerGenerator(
  settings: AnswersConfig,
  logger: { warn(obj: object, msg: string): void },
  sentenceEmbedder: SentenceEmbedder,
  onFallback?: (primary: string) => void,
): AnswerGenerator {
  const extractive = createExtractiveComposer({ embedder: sentenceEmbedder });
  if (settings.provider === 'extractive') return extractive;
  const { provider: _provider, ...openai } = settings;
  return withFallback(createOpenAIGenerator(openai), extractive, logger, onFallback);
}
