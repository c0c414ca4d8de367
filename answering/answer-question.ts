import type { KnowledgeSearch, RetrieveOptions } from '#knowledge/search.js';
import { unknownAnswerText, type Locale } from './locales.js';
import { termCoverage } from './question-terms.js';
import type { AnswerGenerator, ComposedAnswer, TokenSink } from './types.js';

export interface AnsweredQuestion extends ComposedAnswer {
  /** What wrote the answer: a generator's name, or `none` when nothing relevant was found. */
  generator: string;
}

export interface QuestionAnswererDeps {
  search: Pick<KnowledgeSearch, 'retrieve'>;
  generator: AnswerGenerator;
  retrieval: RetrieveOptions;
  /** Least share of the question's terms a source must contain to be answered from (default ⅓, exclusive). */
  minCoverage?: number;
}

/**
 * Answers a question from a knowledge base: retrieves the few relevant sources and lets the
 * generator write from them. A source is relevant when it is close to the question in meaning and
 * contains more than a third of the question's terms. With no relevant source, no generator runs: the operator says it does
 * not know and offers a person, so nothing is ever made up.
 */
export function createQuestionAnswerer({ search, generator, retrieval, minCoverage = 1 / 3 }: QuestionAnswererDeps) {
  return async function answerQuestion(
    input: { tenantId: string; knowledgeBaseId: string; question: string; locale: Locale },
    sink: TokenSink,
  ): Promise<AnsweredQuestion> {
    // Close in meaning (retrieval's similarity floor) and about most of what was asked: a source that
    // shares one word of three with the question is no answer to it.
    const sources = (await search.retrieve(input.tenantId, input.knowledgeBaseId, input.question, retrieval))
      .filter((source) => termCoverage(input.question, `${source.title}\n${source.text}`) > minCoverage)
      .map((source, i) => ({ ...source, n: i + 1 }));
    if (sources.length === 0) {
      const text = unknownAnswerText(input.locale);
      sink.token(text);
      return { outcome: 'unknown', text, citations: [], generator: 'none' };
    }
    const answer = await generator.generate({ question: input.question, locale: input.locale, sources }, sink);
    return { generator: generator.name, ...answer };
  };
}

export type AnswerQuestion = ReturnType<typeof createQuestionAnswerer>;
