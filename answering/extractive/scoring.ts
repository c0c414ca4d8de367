import type { Piece } from './pieces.js';
import type { RetrievedSource } from '../types.js';
import { DIGIT, termsOf, wordsOf } from '../question-terms.js';

/*
 * How well each piece answers the question: the IDF of the question words it contains (exact or by
 * prefix), a share of those in its source's title, a mild length penalty, and small bonuses for the
 * source's rank and the piece's position in its passage.
 */

// A prefix match ("rückgab" in "rückgabefrist") counts this much of an exact one.
const PREFIX_MATCH_WEIGHT = 0.5;
const MIN_PREFIX_CHARS = 5;
// Question words in the source's title count this much of their IDF for every matching sentence of it.
const TITLE_WEIGHT = 0.3;
// A question word already covered by a picked sentence counts this much for the next picks.
const COVERED_WEIGHT = 0.6;
// Sentences longer than this many words are divided by 1 + LENGTH_PENALTY per further 10 words.
const LENGTH_PENALTY_AFTER_WORDS = 20;
const LENGTH_PENALTY = 0.1;
const RANK_BONUS = 0.3; // divided by the source's rank (1, 2, 3…)
const POSITION_BONUS = 0.2; // divided by the sentence's position in its passage (1, 2, 3…)

/** A piece that shares at least one question word, with what it matches. */
export interface Candidate {
  piece: Piece;
  /** Question term index → 1 for an exact match, PREFIX_MATCH_WEIGHT for a prefix match. */
  matches: Map<number, number>;
  /** Before any pick: nothing covered yet. */
  relevance: number;
}

export interface Scoring {
  /** The pieces that share at least one question word; of exact duplicates only the first copy. */
  candidates: Candidate[];
  /** Per question term. */
  idf: number[];
  /** Per source: the question terms its title contains. */
  titleMatches: Array<Map<number, number>>;
}

/** Scores every piece against the question; exact duplicates keep their first copy only. */
export function scoreCandidates(questionTerms: string[], pieces: Piece[][], sources: RetrievedSource[]): Scoring {
  if (questionTerms.length === 0) return { candidates: [], idf: [], titleMatches: [] };
  const seen = new Set<string>();
  const unique: Piece[] = [];
  for (const piece of pieces.flat()) {
    if (piece.key === '' || seen.has(piece.key)) continue;
    seen.add(piece.key);
    unique.push(piece);
  }
  const matched = unique.map((piece) => matchesOf(questionTerms, piece.terms));
  const documentFrequency = questionTerms.map(() => 0);
  for (const matches of matched) for (const term of matches.keys()) documentFrequency[term]!++;
  const idf = documentFrequency.map((df) => Math.log(1 + unique.length / Math.max(df, 1)));
  const titleMatches = sources.map((source) => matchesOf(questionTerms, termsOf(wordsOf(source.title))));

  const candidates: Candidate[] = [];
  unique.forEach((piece, i) => {
    const matches = matched[i]!;
    if (matches.size === 0) return;
    const candidate: Candidate = { piece, matches, relevance: 0 };
    candidate.relevance = relevanceOf(candidate, idf, titleMatches[piece.rank]!, new Set());
    candidates.push(candidate);
  });
  return { candidates, idf, titleMatches };
}

/** Question term index → match weight, for the terms `terms` contains or extends. */
function matchesOf(questionTerms: string[], terms: Set<string>): Map<number, number> {
  const matches = new Map<number, number>();
  questionTerms.forEach((question, i) => {
    if (terms.has(question)) {
      matches.set(i, 1);
      return;
    }
    for (const term of terms) {
      const [shorter, longer] = term.length < question.length ? [term, question] : [question, term];
      if (shorter.length >= MIN_PREFIX_CHARS && longer.startsWith(shorter) && !DIGIT.test(shorter)) {
        matches.set(i, PREFIX_MATCH_WEIGHT);
        return;
      }
    }
  });
  return matches;
}

/** How well the piece answers the question: its share of question words, and its title's, for its length. */
export function relevanceOf(
  candidate: Candidate,
  idf: number[],
  titleMatches: Map<number, number>,
  covered: Set<number>,
): number {
  const { piece, matches } = candidate;
  let overlap = 0;
  for (const [term, weight] of matches) overlap += weight * idf[term]! * (covered.has(term) ? COVERED_WEIGHT : 1);
  let title = 0;
  for (const [term, weight] of titleMatches) if (!matches.has(term)) title += weight * idf[term]!;
  const lengthFactor = 1 + (LENGTH_PENALTY * Math.max(0, piece.wordCount - LENGTH_PENALTY_AFTER_WORDS)) / 10;
  return (overlap + TITLE_WEIGHT * title) / lengthFactor;
}

/** Relevance, with the rank and position bonuses that decide between similar pieces. */
export function scoreOf(candidate: Candidate, relevance: number): number {
  const { rank, position } = candidate.piece;
  return relevance + RANK_BONUS / (rank + 1) + POSITION_BONUS / (position + 1);
}
