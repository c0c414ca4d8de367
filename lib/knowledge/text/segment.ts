/*
 * Cuts a body into the pieces the chunker packs: sentences, and word-bounded parts of sentences too
 * long to pack. Pieces are offsets into the body, never copies, so chunks are cut as plain slices and
 * keep the original spacing (none between CJK sentences, one space elsewhere after normalisation).
 */

/** A piece of the body, `body.slice(start, end)`, that starts and ends on a non-space character. */
export interface Span {
  start: number;
  end: number;
  /** True for the first span of a paragraph (a line of the body). */
  paragraphStart: boolean;
  /** Where this span's paragraph ends, so the chunker can tell whether a whole paragraph still fits. */
  paragraphEnd: number;
}

const PARAGRAPH = /[^\n]+/g;
// Latin terminators must be followed by a space or the line end ("3.5", "example.com/x" are no ends);
// CJK full stops end a sentence right away, as no space follows them.
const SENTENCE_END = /[.!?…]+['"”’)\]»]*(?=\s|$)|[。！？｡]+['"”’)\]»」』）〉》】]*/g;
// Abbreviations that are followed by a capitalised word more often than they end a sentence.
const ABBREVIATIONS = new Set(['dr', 'mr', 'mrs', 'ms', 'prof', 'st', 'vs', 'approx', 'cf', 'fig', 'jr', 'sr', 'no']);
const DOTTED_ABBREVIATION = /^(?:\p{L}\.)+\p{L}$/u; // e.g, i.e, U.S, a.m
const INITIAL = /^\p{Lu}$/u; // "J. Smith"
const OPENING_PUNCTUATION = /^[("'“‘[]+/;

/**
 * Splits the body into sentence spans of at most `maxSpan` characters: longer sentences are cut at
 * word boundaries. A word longer than `maxSpan` becomes a span of its own, cut only where it is longer
 * than `maxWord` (URLs, hashes).
 */
export function segment(body: string, maxSpan: number, maxWord: number): Span[] {
  const spans: Span[] = [];
  for (const line of body.matchAll(PARAGRAPH)) {
    const [start, end] = trimmed(body, line.index, line.index + line[0].length);
    if (start === end) continue;
    let paragraphStart = true;
    for (const [sentenceStart, sentenceEnd] of sentences(body, start, end)) {
      for (const [pieceStart, pieceEnd] of splitAtWords(body, sentenceStart, sentenceEnd, maxSpan, maxWord)) {
        spans.push({ start: pieceStart, end: pieceEnd, paragraphStart, paragraphEnd: end });
        paragraphStart = false;
      }
    }
  }
  return spans;
}

/** True when a chunk may begin or end between `text[i - 1]` and `text[i]` without cutting a word. */
export function isWordBoundary(text: string, i: number): boolean {
  if (i <= 0 || i >= text.length) return true;
  const before = text.charCodeAt(i - 1);
  const after = text.charCodeAt(i);
  // CJK is written without spaces, and each character is (part of) a word on its own.
  return isSpace(before) || isSpace(after) || isCjk(before) || isCjk(after);
}

/** True when a word starts at `text[i]`. */
export function isWordStart(text: string, i: number): boolean {
  return i < text.length && !isSpace(text.charCodeAt(i)) && isWordBoundary(text, i);
}

function* sentences(body: string, start: number, end: number): Generator<[number, number]> {
  const line = body.slice(start, end);
  let from = 0;
  for (const match of line.matchAll(SENTENCE_END)) {
    const to = match.index + match[0].length;
    if (to === line.length || continuesSentence(line, match.index, to)) continue;
    yield trimmed(body, start + from, start + to);
    from = to;
  }
  const last = trimmed(body, start + from, end);
  if (last[0] < last[1]) yield last;
}

/** A terminator that is not a sentence end: "e.g. this", "Dr. Who", "J. Smith", "wait… what". */
function continuesSentence(line: string, terminatorAt: number, after: number): boolean {
  if (/^[。！？｡]/.test(line[terminatorAt] ?? '')) return false;
  let next = after;
  while (next < line.length && isSpace(line.charCodeAt(next))) next++;
  if (/\p{Ll}/u.test(line[next] ?? '')) return true;
  if (line.slice(terminatorAt, after) !== '.') return false;
  let wordStart = terminatorAt;
  while (wordStart > 0 && !isSpace(line.charCodeAt(wordStart - 1))) wordStart--;
  const word = line.slice(wordStart, terminatorAt).replace(OPENING_PUNCTUATION, '');
  return ABBREVIATIONS.has(word.toLowerCase()) || DOTTED_ABBREVIATION.test(word) || INITIAL.test(word);
}

/**
 * Cuts `body[start, end)` into pieces of at most `max` characters at word boundaries. A single word
 * longer than `max` stays whole up to `maxWord` characters; only longer ones are cut mid-word.
 */
function* splitAtWords(body: string, start: number, end: number, max: number, maxWord: number): Generator<[number, number]> {
  let from = start;
  while (end - from > max) {
    let to = from + max;
    while (to > from && !isWordBoundary(body, to)) to--;
    if (to === from) to = wordEndOrCut(body, from, end, maxWord);
    const piece = trimmed(body, from, to);
    if (piece[0] < piece[1]) yield piece;
    from = trimmed(body, to, end)[0];
  }
  if (from < end) yield [from, end];
}

function wordEndOrCut(body: string, from: number, end: number, maxWord: number): number {
  const limit = Math.min(end, from + maxWord);
  let to = from + 1;
  while (to < limit && !isWordBoundary(body, to)) to++;
  if (to < limit || limit === end) return to;
  // Longer than a whole chunk: cut it, but never between the halves of a surrogate pair.
  return isHighSurrogate(body.charCodeAt(limit - 1)) && limit - 1 > from ? limit - 1 : limit;
}

function trimmed(text: string, start: number, end: number): [number, number] {
  while (start < end && isSpace(text.charCodeAt(start))) start++;
  while (end > start && isSpace(text.charCodeAt(end - 1))) end--;
  return [start, end];
}

function isSpace(code: number): boolean {
  return (
    code === 0x20 ||
    (code >= 0x09 && code <= 0x0d) ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

// CJK punctuation, kana and ideographs (Hangul is written with spaces, so it is left out).
function isCjk(code: number): boolean {
  return (
    (code >= 0x2e80 && code <= 0x9fff && code !== 0x3000) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xfe30 && code <= 0xfe4f) ||
    (code >= 0xff00 && code <= 0xffef)
  );
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
