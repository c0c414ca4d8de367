import type { KnowledgeSearch, RetrieveOptions } from '#knowledge/search.js';
import type { Locale } from '#workflows/locales.js';
import { unknownAnswerText } from './locales.js';
import { answeringSources, type EvidenceRule } from './evidence.js';
import { mendTypos } from './typos.js';
import type { SentenceEmbedder } from './extractive/scoring.js';
import type { SentenceMemory } from './sentence-memory.js';
import type { AnswerGenerator, ComposedAnswer, TokenSink } from './types.js';

export interface AnsweredQuestion extends ComposedAnswer {
  /** What wrote the answer: a generator's name, or `none` when nothing relevant was found. */
  generator: string;
  /**
   * With an `unknown` outcome: the sources retrieval found close enough to consider, though the
   * evidence rule (or the generator) did not answer from them (key `<knowledgeBaseId>/<externalId>`,
   * score their cosine similarity). The content gaps keep them.
   */
  closestSources?: { key: string; title: string; score: number }[];
}

/**
 * Sources an answer may cite, and chunks of each it reads: the best one, since its sentences are
 * what the evidence rule and the composer embed, and the model's time grows with them.
 */
export const answerRetrieval: Omit<RetrieveOptions, 'minSimilarity'> = { maxSources: 3, maxPassagesPerSource: 1 };

export interface QuestionAnswererDeps {
  search: Pick<KnowledgeSearch, 'retrieve'>;
  generator: AnswerGenerator;
  /** How many sources and passages to retrieve; the least similarity is the evidence rule's. */
  retrieval: Omit<RetrieveOptions, 'minSimilarity'>;
  evidence: EvidenceRule;
  /** all-MiniLM-L6-v2 behind a cache, shared with the extractive composer: the sentences it compares are embedded once. */
  sentences: SentenceEmbedder;
  /**
   * Keeps the sentence vectors of the chunks an answer read, for the next answers; in the background,
   * after the answer (a failure is only told to `onError`: the next answer embeds them again).
   */
  memory?: { remember: SentenceMemory['remember']; onError(error: unknown): void };
}

/**
 * Answers a question from a knowledge base: retrieves the few relevant sources and lets the
 * generator write from them. A source is relevant by the evidence rule (`evidence.ts`). With no
 * relevant source, no generator runs, whichever it is: the operator says it does not know and
 * offers a person, so nothing is ever made up.
 */
export function createQuestionAnswerer({ search, generator, retrieval, evidence, sentences, memory }: QuestionAnswererDeps) {
  return async function answerQuestion(
    input: { tenantId: string; knowledgeBaseId: string; question: string; locale: Locale },
    sink: TokenSink,
  ): Promise<AnsweredQuestion> {
    const retrieved = await search.retrieve(input.tenantId, input.knowledgeBaseId, input.question, {
      ...retrieval,
      minSimilarity: evidence.minSimilarity,
    });
    // The sentence model compares the question with its typos mended against the sources' words.
    const question = mendTypos(input.question, retrieved, sentences.tokenWindow);
    const sources = await answeringSources(question, retrieved, evidence, sentences);
    const closestSources = () =>
      retrieved.map((source) => ({
        key: `${input.knowledgeBaseId}/${source.externalId}`,
        title: source.title,
        score: source.similarity,
      }));
    if (sources.length === 0) {
      const text = unknownAnswerText(input.locale);
      sink.token(text);
      return { outcome: 'unknown', text, citations: [], generator: 'none', closestSources: closestSources() };
    }
    const answer = await generator.generate({ question, locale: input.locale, sources }, sink);
    memory?.remember(input.knowledgeBaseId, sources).catch(memory.onError);
    return {
      generator: generator.name,
      ...answer,
      ...(answer.outcome === 'unknown' ? { closestSources: closestSources() } : {}),
    };
  };
}

export type AnswerQuestion = ReturnType<typeof createQuestionAnswerer>;
