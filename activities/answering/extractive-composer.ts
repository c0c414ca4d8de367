import { segment } from '../text/segment.js';
import { stringsFor } from './locales.js';
import type { AnswerGenerator, AnswerInput, Citation, ComposedAnswer, RetrievedSource, TokenSink } from './types.js';
import { DIGIT, termsOf, wordsOf } from './terms.js';

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
// A picked sentence this short may bring the next one along (one that introduces it always does).
const SHORT_SENTENCE_CHARS = 80;

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
// Further sentences must be at least this share as relevant as the best one (bonuses aside).
const RELATIVE_CUTOFF = 0.35;
// Near duplicates: this share of content words in common, or one contained in the other.
const DUPLICATE_JACCARD = 0.8;
const MIN_CONTAINED_CHARS = 20;

interface Limits {
  maxSentences: number;
  maxChars: number;
  maxPieceChars: number;
}

/** A sentence, or a piece of an over-long one, as an offset range of its passage. */
interface Piece {
  rank: number;
  passage: string;
  passageIndex: number;
  /** Index among its source's pieces: adjacent pieces of a passage have adjacent indexes. */
  index: number;
  /** Index within its passage. */
  position: number;
  /** Index of its line within the passage. */
  line: number;
  /** Pieces of one over-long sentence share this. */
  sentence: number;
  start: number;
  end: number;
  /** The piece starts or ends inside a sentence, so it is shown with "…" there. */
  cutBefore: boolean;
  cutAfter: boolean;
  listItem: boolean;
  /** A short line without end punctuation and digits: a heading, or a label for what follows. */
  label: boolean;
  /** Ends with end punctuation (or is cut): false for headings, table rows, bare list items. */
  terminated: boolean;
  /** A question ("Do you ship abroad?" of an FAQ). */
  question: boolean;
  /** Says what follows rather than anything itself: a label, a question, "…in a few steps:". */
  introduces: boolean;
  terms: Set<string>;
  /** Folded text, to spot duplicates. */
  key: string;
  wordCount: number;
}

interface Candidate {
  piece: Piece;
  /** Question term index → 1 for an exact match, PREFIX_MATCH_WEIGHT for a prefix match. */
  matches: Map<number, number>;
  /** Before any pick: nothing covered yet. */
  relevance: number;
}

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

/** Sends the text word by word, each word with the whitespace after it. */
function streamWords(text: string, sink: TokenSink): void {
  for (const word of text.match(/\S+\s*|\s+/g) ?? []) sink.token(word);
}

// ---------------------------------------------------------------------------------------------
// ---------------------------------------------------------------------------------------------
// Pieces

const PASSAGE_BREAK = /\n[^\S\n]*\n\s*/;
const LIST_ITEM = /^(?:[-*•·]|\d{1,3}[.)])\s/;
const LIST_NUMBER = /^\d{1,3}[.)]$/;
const ENDS_SENTENCE = /[.!?…:;。！？)"”’»]$/;
const QUESTION_END = /[?？]['"”’)»]*$/;
// "returns are…", but not "iPhone" or "eBay".
const STARTS_LOWER_CASE = /^\p{Ll}(?!\p{Lu})/u;
const MAX_LABEL_CHARS = 60;
// segment() cuts nothing when the limits are this large: over-long sentences are cut here, at clauses.
const UNLIMITED = Number.MAX_SAFE_INTEGER;

/** The source's passages cut into sentences, over-long ones into pieces of at most `maxPieceChars`. */
function piecesOf(source: RetrievedSource, rank: number, maxPieceChars: number, stems: Map<string, string>): Piece[] {
  const pieces: Piece[] = [];
  let sentence = 0;
  source.text.split(PASSAGE_BREAK).forEach((passage, passageIndex) => {
    const spans = segment(passage, UNLIMITED, UNLIMITED);
    let position = 0;
    let line = -1;
    for (let i = 0; i < spans.length; i++) {
      const span = spans[i]!;
      let end = span.end;
      // segment() ends a sentence after "1." of a numbered list item; the number belongs to the item.
      const following = spans[i + 1];
      if (LIST_NUMBER.test(passage.slice(span.start, span.end)) && following && !following.paragraphStart) {
        end = following.end;
        i++;
      }
      if (span.paragraphStart) line++;
      const text = passage.slice(span.start, end);
      const listItem = span.paragraphStart && LIST_ITEM.test(text);
      const wholeLine = span.paragraphStart && end === span.paragraphEnd;
      const terminated = ENDS_SENTENCE.test(text);
      const label = wholeLine && !terminated && !listItem && text.length <= MAX_LABEL_CHARS && !/[\d|]/.test(text);
      // A passage that starts in the middle of a sentence (a chunk cut inside a long one).
      const startsInside = position === 0 && STARTS_LOWER_CASE.test(text);
      const isLast = i === spans.length - 1;
      const endsInside = isLast && !terminated && !listItem && text.length > SHORT_SENTENCE_CHARS;
      const ranges = splitLongSentence(passage, span.start, end, maxPieceChars);
      ranges.forEach(([start, pieceEnd], k) => {
        const words = wordsOf(passage.slice(start, pieceEnd));
        const cutAfter = k < ranges.length - 1 || endsInside;
        const question = !cutAfter && QUESTION_END.test(text);
        pieces.push({
          rank,
          passage,
          passageIndex,
          index: pieces.length,
          position: position++,
          line,
          sentence,
          start,
          end: pieceEnd,
          cutBefore: k > 0 || startsInside,
          cutAfter,
          listItem: listItem && k === 0,
          label,
          terminated: terminated || cutAfter,
          question,
          introduces: label || question || (!cutAfter && text.endsWith(':')),
          terms: termsOf(words, stems),
          key: words.join(' '),
          wordCount: words.length,
        });
      });
      sentence++;
    }
  });
  return pieces;
}

const CLAUSE_BREAK = /[,;:)]\s|\s[–—-]\s/g;

/**
 * Cuts `text[start, end)` into ranges of at most `max` characters: after the last clause break (a
 * comma, semicolon, colon or dash) in the second half of the window, else at the last space, else
 * (one enormous word) right at the limit.
 */
function splitLongSentence(text: string, start: number, end: number, max: number): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  let from = start;
  while (end - from > max) {
    const window = text.slice(from, from + max + 1);
    let cut = -1;
    for (const match of window.matchAll(CLAUSE_BREAK)) {
      const at = match[0].startsWith(' ') ? match.index : match.index + 1;
      if (at >= max / 2 && at <= max) cut = at;
    }
    if (cut < 0) cut = window.lastIndexOf(' ', max);
    if (cut <= 0) cut = isHighSurrogate(window.charCodeAt(max - 1)) ? max - 1 : max;
    ranges.push([from, trimEnd(text, from, from + cut)]);
    from += cut;
    while (from < end && text[from] === ' ') from++;
  }
  if (from < end) ranges.push([from, end]);
  return ranges;
}

function trimEnd(text: string, start: number, end: number): number {
  while (end > start && text[end - 1] === ' ') end--;
  return end;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

// ---------------------------------------------------------------------------------------------
// Scoring and picking

interface Scoring {
  /** The pieces that share at least one question word; of exact duplicates only the first copy. */
  candidates: Candidate[];
  /** Per question term. */
  idf: number[];
  /** Per source: the question terms its title contains. */
  titleMatches: Array<Map<number, number>>;
}

/** Scores every piece against the question; exact duplicates keep their first copy only. */
function scoreCandidates(questionTerms: string[], pieces: Piece[][], sources: RetrievedSource[]): Scoring {
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
function relevanceOf(candidate: Candidate, idf: number[], titleMatches: Map<number, number>, covered: Set<number>): number {
  const { piece, matches } = candidate;
  let overlap = 0;
  for (const [term, weight] of matches) overlap += weight * idf[term]! * (covered.has(term) ? COVERED_WEIGHT : 1);
  let title = 0;
  for (const [term, weight] of titleMatches) if (!matches.has(term)) title += weight * idf[term]!;
  const lengthFactor = 1 + (LENGTH_PENALTY * Math.max(0, piece.wordCount - LENGTH_PENALTY_AFTER_WORDS)) / 10;
  return (overlap + TITLE_WEIGHT * title) / lengthFactor;
}

/** Relevance, with the rank and position bonuses that decide between similar pieces. */
function scoreOf(candidate: Candidate, relevance: number): number {
  const { rank, position } = candidate.piece;
  return relevance + RANK_BONUS / (rank + 1) + POSITION_BONUS / (position + 1);
}

interface Pick {
  piece: Piece;
  score: number;
}

/**
 * Greedy: the best candidate that still fits, then the sentences that continue it when it is short,
 * and again, with question words already covered counting less, until the limits are reached.
 */
function pickPieces(scoring: Scoring, pieces: Piece[][], sources: RetrievedSource[], limits: Limits): Pick[] {
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

// ---------------------------------------------------------------------------------------------
// Rendering

interface Group {
  rank: number;
  pieces: Piece[];
}

/** One group per source, pieces in document order, the group with the best pick first. */
function groupBySource(picked: Pick[]): Group[] {
  const groups = new Map<number, Group & { score: number }>();
  for (const { piece, score } of picked) {
    const group = groups.get(piece.rank) ?? { rank: piece.rank, pieces: [], score: -Infinity };
    group.pieces.push(piece);
    group.score = Math.max(group.score, score);
    groups.set(piece.rank, group);
  }
  return [...groups.values()]
    .sort((a, b) => b.score - a.score || a.rank - b.rank)
    .map(({ rank, pieces }) => ({ rank, pieces: pieces.sort((a, b) => a.index - b.index) }));
}

/** Groups separated by blank lines, each ending with its source's marker. */
function render(groups: Group[], sources: RetrievedSource[]): string {
  return groups.map((group) => `${renderPieces(group.pieces)} [${sources[group.rank]!.n}]`).join('\n\n');
}

// Footnote markers in the source ("as reported[3]") would read as citations of this answer.
const FOOTNOTE = /\s?\[\d{1,3}\]/g;
const TRAILING_CLAUSE_PUNCTUATION = /[\s,;:–—-]+$/;

/** The pieces of one group as text: runs of one sentence rejoined, lines kept apart where needed. */
function renderPieces(pieces: Piece[]): string {
  let text = '';
  for (let i = 0; i < pieces.length; i++) {
    const first = pieces[i]!;
    let last = first;
    while (pieces[i + 1]?.sentence === last.sentence && pieces[i + 1]?.index === last.index + 1) last = pieces[++i]!;
    let run = first.passage.slice(first.start, last.end).replace(FOOTNOTE, '');
    if (first.cutBefore) run = `…${run}`;
    if (last.cutAfter) run = `${run.replace(TRAILING_CLAUSE_PUNCTUATION, '')}…`;
    const next = pieces[i + 1];
    if (next && last.label && !ENDS_SENTENCE.test(run)) run += ':';
    text += run;
    if (next) text += next.listItem || (!last.terminated && !last.label) ? '\n' : ' ';
  }
  return text;
}
