import type { AnswersConfig } from '#platform/config.js';
import { createExtractiveComposer } from './extractive/composer.js';
import { createOpenAIGenerator } from './llm/openai-generator.js';
import type { AnswerGenerator } from './types.js';
import { withFallback } from './with-fallback.js';

export { createQuestionAnswerer, type AnswerQuestion } from './answer-question.js';
export type { AnswerGenerator } from './types.js';

/**
 * The answer generator the configuration describes: the extractive composer, or an OpenAI-compatible
 * chat model that falls back to the composer (with a logged warning) whenever it fails.
 */
export function createAnswerGenerator(
  settings: AnswersConfig,
  logger: { warn(obj: object, msg: string): void },
): AnswerGenerator {
  const extractive = createExtractiveComposer();
  if (settings.provider === 'extractive') return extractive;
  const { provider: _provider, ...openai } = settings;
  return withFallback(createOpenAIGenerator(openai), extractive, logger);
}
