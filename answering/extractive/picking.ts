import { SHORT_SENTENCE_CHARS, type Piece } from './pieces.js';
import { groupBySource, render, type Pick } from './rendering.js';
import { relevanceOf, scoreOf, type Candidate, type Scoring } from './scoring.js';
import type { RetrievedSource } from '../types.js';

/*
 * Which pieces the extractive answer shows: the best candidates, greedily, within the sentence and
 * character limits, each with the short sentences that continue it, and no near duplicates.
 */

/** Limits of one answer. */
export interface Limits {
  maxSentences: number;
  maxChars: number;
  maxPieceChars: number;
}

// Further sentences must be at least this share as relevant as the best one (bonuses aside).
const RELATIVE_CUTOFF = 0.35;
// Near duplicates: this share of content words in common, or one contained in the other.
const DUPLICATE_JACCARD = 0.8;
const MIN_CONTAINED_CHARS = 20;

/**
 * Greedy: the best candidate that still fits, then the sentences that continue it when it is short,
 * and again, with question words already covered counting less, until the limits are reached.
 */
export function pickPieces(scoring: Scoring, pieces: Piece[][], sources: RetrievedSource[], limits: Limits): Pick[] {
  const { candidates, idf, titleMatches } = scoring;
  const picked: Pick[] = [];
  const covered = new Set<number>();
  const remaining = new Set(candidates);
  const candidateOf = new Map(candidates.map((candidate) => [candidate.piece, candidate]));
  const minRelevance = RELATIVE_CUTOFF * Math.max(...candidates.map((candidate) => candidate.relevance));
  const tryAdd = (piece: Piece, score: number): boolean => {
    if (picked.some((pick) => isNearDuplicate(pick.piece, piece))) return false;
    const attempt = [...picked, { piece, score }];
    if (render(groupBySource(attempt), sources).length > limits.maxChars) return false;
    picked.push({ piece, score });
    return true;
  };

  while (picked.length < limits.maxSentences && remaining.size > 0) {
    let next: Candidate | undefined;
    let nextScore = -Infinity;
    for (const candidate of remaining) {
      const relevance = relevanceOf(candidate, idf, titleMatches[candidate.piece.rank]!, covered);
      const score = scoreOf(candidate, relevance);
      if (relevance >= minRelevance && score > nextScore) [next, nextScore] = [candidate, score];
    }
    if (!next) break;
    remaining.delete(next);
    const before = picked.length;
    if (!tryAdd(next.piece, nextScore)) continue;

    // Continuations: "Returns are free within 30 days. Refunds take 5 business days."
    let current = next.piece;
    while (picked.length < limits.maxSentences) {
      const following = pieces[current.rank]![current.index + 1];
      if (!following || !continues(current, following) || picked.some((pick) => pick.piece === following)) break;
      const candidate = candidateOf.get(following);
      if (!tryAdd(following, candidate ? scoreOf(candidate, candidate.relevance) : 0)) break;
      current = following;
    }
    // A heading, question or "…these steps:" says nothing without what follows it.
    while (picked.length > before && picked.at(-1)!.piece.introduces) picked.pop();
    for (const { piece } of picked.slice(before)) {
      const candidate = candidateOf.get(piece);
      if (!candidate) continue;
      remaining.delete(candidate);
      for (const term of candidate.matches.keys()) covered.add(term);
    }
  }
  return picked;
}

/** True when `next` may follow the picked `piece` although it shares no question word. */
function continues(piece: Piece, next: Piece): boolean {
  if (next.passageIndex !== piece.passageIndex) return false;
  // A heading, or a question at the start of a line, begins something else (the next FAQ entry).
  const nextLine = next.line !== piece.line;
  if (next.label || (next.question && nextLine)) return false;
  if (piece.introduces) return true;
  if (piece.end - piece.start > SHORT_SENTENCE_CHARS) return false;
  // Across lines only from a list item to the next, or from a line without end punctuation (table rows).
  return !nextLine || (piece.listItem && next.listItem) || !piece.terminated;
}

function isNearDuplicate(a: Piece, b: Piece): boolean {
  if (a.key === b.key) return true;
  const [shorter, longer] = a.key.length < b.key.length ? [a, b] : [b, a];
  if (shorter.key.length >= MIN_CONTAINED_CHARS && longer.key.includes(shorter.key)) return true;
  if (a.terms.size < 3 || b.terms.size < 3) return false;
  let common = 0;
  for (const term of a.terms) if (b.terms.has(term)) common++;
  return common / (a.terms.size + b.terms.size - common) >= DUPLICATE_JACCARD;
}
