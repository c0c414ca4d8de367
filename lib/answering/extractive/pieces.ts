import { segment } from '#knowledge/text/segment.js';
import { leansBack } from './openers.js';
import type { RetrievedSource } from '../types.js';
import { termsOf, wordsOf } from '../question-terms.js';

/*
 * The extractive composer's units: a source's passages cut into sentences, over-long sentences into
 * pieces at clause breaks, each piece marked with what it is (list item, label, question, a line that
 * introduces what follows, a sentence that leans on the one before) and the terms it holds.
 */

/** A sentence, or a piece of an over-long one, as an offset range of its passage. */
export interface Piece {
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
  /** Opens with "It", "However", "Dafür"…: means nothing without the piece right before it. */
  leansBack: boolean;
  terms: Set<string>;
  /** Folded text, to spot duplicates. */
  key: string;
  wordCount: number;
}

// After a picked heading, question or colon, a sentence this short brings the next of its line, list or table along.
export const SHORT_SENTENCE_CHARS = 80;
export const ENDS_SENTENCE = /[.!?…:;。！？)"”’»]$/;

const PASSAGE_BREAK = /\n[^\S\n]*\n\s*/;
const LIST_ITEM = /^(?:[-*•·]|\d{1,3}[.)])\s/;
const LIST_NUMBER = /^\d{1,3}[.)]$/;
const QUESTION_END = /[?？]['"”’)»]*$/;
// "returns are…", but not "iPhone" or "eBay".
const STARTS_LOWER_CASE = /^\p{Ll}(?!\p{Lu})/u;
const MAX_LABEL_CHARS = 60;
// segment() cuts nothing when the limits are this large: over-long sentences are cut here, at clauses.
const UNLIMITED = Number.MAX_SAFE_INTEGER;

/** The source's passages cut into sentences, over-long ones into pieces of at most `maxPieceChars`. */
export function piecesOf(
  source: Pick<RetrievedSource, 'text'>,
  rank: number,
  maxPieceChars: number,
  stems: Map<string, string>,
): Piece[] {
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
      const dependent = leansBack(text);
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
          leansBack: dependent && k === 0,
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
