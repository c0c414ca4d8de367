import { piecesOf } from './pieces.js';
import { pickPieces, type Limits } from './picking.js';
import { groupBySource, render, streamWords } from './rendering.js';
import { closestSentenceSimilarities, scoreCandidates, sentenceTextsOf, type SentenceEmbedder } from './scoring.js';
import { stringsFor } from '../locales.js';
import type { AnswerGenerator, AnswerInput, Citation, ComposedAnswer, RetrievedSource } from '../types.js';
import { termsOf, wordsOf } from '../question-terms.js';

/*
 * The default answer generator: no language model and no network, but a sentence-embedding model. It
 * answers with the few sentences of the retrieved passages whose meaning is closest to the
 * question's, grouped by source and each group ending with the source's `[n]` marker.
 *
 * The question and every sentence (pieces of over-long ones) are embedded in one call; a sentence's
 * relevance is its cosine similarity to the question. A sentence is shown only when it is within a
 * margin of the best one and above an absolute floor, and a source contributes only when its best
 * sentence is within a narrower margin of the best overall (`picking.ts` says how the three values
 * were chosen): a source that shares the topic without answering is neither shown nor cited, and no
 * sentence above the floor means "I don't know", as does a question of question words only. A
 * sentence that leans on the one before it ("It…", "However…", "Dafür…") is shown only with that one;
 * a heading, an FAQ question or "…in a few steps:" only with what follows it. Within a source,
 * sentences keep the source's order; the source with the best sentence comes first.
 *
 * The steps live beside this file: `pieces.ts` (passages → sentences and pieces), `openers.ts`
 * (sentences that lean back), `scoring.ts` (embeddings), `picking.ts` (floor, margins, antecedents,
 * continuations, limits, near duplicates) and `rendering.ts` (groups, `[n]` markers, streaming).
 */

/** What the composer needs, and the limits of its answers. */
export interface ExtractiveComposerOptions {
  /** Compares the question with each sentence: all-MiniLM-L6-v2, for which the thresholds were chosen. */
  embedder: SentenceEmbedder;
  /** At most this many sentences (pieces of over-long sentences count one each); default 3. */
  maxSentences?: number;
  /** At most this many characters of answer text, markers included; default 420, at least 80. */
  maxChars?: number;
}

/** The `[n]`-citing sentence picker, the generator used when no language model is configured. */
export function createExtractiveComposer(options: ExtractiveComposerOptions): AnswerGenerator {
  const { embedder } = options;
  const maxSentences = options.maxSentences ?? DEFAULT_MAX_SENTENCES;
  const maxChars = options.maxChars ?? DEFAULT_MAX_CHARS;
  if (!Number.isInteger(maxSentences) || maxSentences < 1) {
    throw new RangeError(`maxSentences must be a positive whole number, not ${maxSentences}`);
  }
  if (!Number.isInteger(maxChars) || maxChars < MIN_MAX_CHARS) {
    throw new RangeError(`maxChars must be a whole number of at least ${MIN_MAX_CHARS}, not ${maxChars}`);
  }
  const limits: Limits = { maxSentences, maxChars, maxPieceChars: Math.min(MAX_PIECE_CHARS, maxChars - 12) };
  return {
    name: 'extractive',
    async generate(input, sink) {
      const answer = await composeExtractiveAnswer(input, limits, embedder);
      streamWords(answer.text, sink);
      return answer;
    },
  };
}

const DEFAULT_MAX_SENTENCES = 3;
const DEFAULT_MAX_CHARS = 420;
const MIN_MAX_CHARS = 80;
// Sentences longer than this are cut into pieces, at a clause break where there is one.
const MAX_PIECE_CHARS = 240;
const DEFAULT_PIECE_CHARS = Math.min(MAX_PIECE_CHARS, DEFAULT_MAX_CHARS - 12);

/** How close each source's closest sentence is to the question, cut into pieces as a default composer cuts them. */
export function closestSentences(question: string, sources: RetrievedSource[], embedder: SentenceEmbedder): Promise<number[]> {
  return closestSentenceSimilarities(question, sources, embedder, DEFAULT_PIECE_CHARS);
}

/** The texts a default composer embeds for the sentences of `passage`: what the sentence memory keeps the vectors of. */
export function answerSentencesOf(title: string, passage: string): string[] {
  return sentenceTextsOf(title, passage, DEFAULT_PIECE_CHARS);
}

/** Composes the answer for `input` without streaming it. */
async function composeExtractiveAnswer(input: AnswerInput, limits: Limits, embedder: SentenceEmbedder): Promise<ComposedAnswer> {
  const stems = new Map<string, string>();
  // A question of question words only ("How do I do that?") names nothing to look for.
  const about = termsOf(wordsOf(input.question), stems);
  const pieces = input.sources.map((source, rank) => piecesOf(source, rank, limits.maxPieceChars, stems));
  const picked =
    about.size === 0 || pieces.every((ofSource) => ofSource.length === 0)
      ? []
      : pickPieces(await scoreCandidates(input.question, pieces, input.sources, embedder), pieces, input.sources, limits);
  if (picked.length === 0) {
    const strings = stringsFor(input.locale);
    return { outcome: 'unknown', text: `${strings.dontKnow} ${strings.offerHuman}`, citations: [] };
  }
  const groups = groupBySource(picked);
  return {
    outcome: 'answered',
    text: render(groups, input.sources),
    citations: groups.map((group) => citationOf(input.sources[group.rank]!)).sort((a, b) => a.n - b.n),
  };
}

function citationOf(source: RetrievedSource): Citation {
  return { n: source.n, title: source.title, url: source.url, externalId: source.externalId, sourceType: source.sourceType };
}
