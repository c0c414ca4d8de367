import { piecesOf } from './pieces.js';
import { pickPieces, type Limits } from './picking.js';
import { groupBySource, render, streamWords } from './rendering.js';
import { scoreCandidates } from './scoring.js';
import { stringsFor } from '../locales.js';
import type { AnswerGenerator, AnswerInput, Citation, ComposedAnswer, RetrievedSource } from '../types.js';
import { termsOf, wordsOf } from '../question-terms.js';

/*
 * The default answer generator: no model, no network. It answers with the few sentences of the
 * retrieved passages that share the most (and the rarest) content words with the question, grouped by
 * source and each group ending with the source's `[n]` marker.
 *
 * Scoring, per sentence: for each content word of the question it contains, the word's IDF over all
 * candidate sentences (half of it for a prefix match such as "rückgabe"/"rückgabefrist"), plus a
 * share of the IDF of the question words found in the source's title, divided by a mild length
 * penalty; then small bonuses for the source's rank and the sentence's position in its passage. A
 * sentence needs at least one question word of its own to be picked; the sentence right after a
 * short picked one may follow it regardless ("Returns are free within 30 days. Refunds take 5 days.").
 * A heading, an FAQ question or "…in a few steps:" is only shown with what follows it.
 *
 * The steps live beside this file: `extractive-pieces.ts` (passages → sentences and pieces),
 * `extractive-scoring.ts`, `extractive-picking.ts` (limits, continuations, near duplicates) and
 * `extractive-rendering.ts` (groups, `[n]` markers, streaming).
 */

/** Limits of an extractive answer. */
export interface ExtractiveComposerOptions {
  /** At most this many sentences (pieces of over-long sentences count one each); default 3. */
  maxSentences?: number;
  /** At most this many characters of answer text, markers included; default 420, at least 80. */
  maxChars?: number;
}

/** The `[n]`-citing sentence picker, the generator used when no model is configured. */
export function createExtractiveComposer(options: ExtractiveComposerOptions = {}): AnswerGenerator {
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
      const answer = composeExtractiveAnswer(input, limits);
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

/** Composes the answer for `input` without streaming it. */
function composeExtractiveAnswer(input: AnswerInput, limits: Limits): ComposedAnswer {
  const stems = new Map<string, string>();
  const questionTerms = [...termsOf(wordsOf(input.question), stems)];
  const pieces = input.sources.map((source, rank) => piecesOf(source, rank, limits.maxPieceChars, stems));
  const scoring = scoreCandidates(questionTerms, pieces, input.sources);
  const picked = scoring.candidates.length === 0 ? [] : pickPieces(scoring, pieces, input.sources, limits);
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
