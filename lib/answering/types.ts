/**
 * The shapes answer generation works with. Retrieval hands a generator the few sources that are
 * relevant enough, best first, each with its passages merged; the generator writes the answer in
 * light markdown with `[n]` markers and names the sources it used.
 */
import type { RetrievedSource } from '#knowledge/search.js';
import type { Locale } from '#workflows/locales.js';

export type { RetrievedSource };

export interface Citation {
  n: number;
  title: string;
  url: string | null;
  externalId: string;
  sourceType: string;
}

export interface AnswerInput {
  question: string;
  locale: Locale;
  /** Relevant sources only (at most a few), best first; never empty when a generator is called. */
  sources: RetrievedSource[];
}

/** `unknown`: the sources do not answer the question; `text` then says so and offers a person. */
export type AnswerOutcome = 'answered' | 'unknown';

export interface ComposedAnswer {
  outcome: AnswerOutcome;
  /** Light markdown: paragraphs, `**bold**`, `_italic_`, `- ` lists, `[label](https://…)` links, `[n]` citation markers. */
  text: string;
  /** The sources the text cites, in citation-number order; empty when `outcome` is `unknown`. */
  citations: Citation[];
}

/** Where a generator streams its answer while writing it. */
export interface TokenSink {
  token(delta: string): void;
  /** The tokens sent so far are void (a provider failed mid-answer and another starts over). */
  reset(): void;
}

export interface AnswerGenerator {
  /** For logs and the message record: `extractive`, or `openai:<model>`. */
  readonly name: string;
  /** Streams the answer into `sink`; the concatenated tokens equal the returned `text`. */
  generate(input: AnswerInput, sink: TokenSink): Promise<ComposedAnswer>;
}
