import type { TokenWindow } from '../embeddings/embedder.js';
import { isWordStart, segment, type Span } from './segment.js';

/*
 * The second text step of ingestion: a normalised body becomes chunks sized for retrieval. Chunks are
 * slices of the body (never rebuilt from pieces), so packing a 100k-character body stays linear.
 */

export interface Chunk {
  index: number;
  /** The chunk body, a slice of the input body; empty only for an item without a body. */
  text: string;
  /**
   * What gets embedded: the title, a blank line, then the text, so every chunk carries its item's
   * topic. With a token window, a title too long for its share of the window is shortened here (never
   * in the stored title) and the whole of `embedText` fits the window.
   */
  embedText: string;
}

export interface ChunkOptions {
  /** Upper bound on `text.length` (UTF-16 code units). Default 1000. */
  maxChars?: number;
  /** Upper bound on the text a chunk repeats from the previous one. Default 150; at most maxChars / 2. */
  overlapChars?: number;
  /**
   * The embedding model's window: a chunk whose embedText would take more tokens is cut again, so the
   * model reads every word of every chunk instead of silently dropping a chunk's tail.
   */
  tokenWindow?: TokenWindow;
}

export const DEFAULT_MAX_CHARS = 1000;
export const DEFAULT_OVERLAP_CHARS = 150;

/**
 * Splits an item's body into overlapping chunks of at most `maxChars` characters.
 *
 * - Paragraphs (lines) are kept whole when they fit; a chunk already half full is closed at a paragraph
 *   boundary rather than filled with the start of a paragraph that would not fit.
 * - Otherwise chunks end at sentence ends (`.`, `!`, `?`, `…`, `。！？`; not after "e.g.", "Dr.", initials
 *   or a lowercase continuation). Sentences longer than `maxChars - overlapChars` are cut between
 *   words, so that a full overlap still fits before them; only words longer than `maxChars` (URLs,
 *   hashes) are cut inside.
 * - Each chunk after the first starts with the last whole sentences of the previous chunk that total at
 *   most `overlapChars`; if its last sentence alone is longer, with its last words instead.
 * - A body that is empty or only whitespace gives one chunk with empty text, embedded as the title.
 * - With a `tokenWindow`, a chunk that takes more tokens than the window (numbers, codes and rare words
 *   take several tokens each) is chunked again with a proportionally smaller size until it fits.
 */
export function chunkText(title: string, body: string, options: ChunkOptions = {}): Chunk[] {
  const { maxChars, overlapChars } = resolveOptions(options);
  const window = options.tokenWindow;
  const heading = window ? headingWithin(title.trim(), window) : title.trim();
  const texts = window ? packWithin(heading, body, maxChars, overlapChars, window) : packChars(body, maxChars, overlapChars);
  return texts.map((text, index) => ({ index, text, embedText: embedTextOf(heading, text) }));
}

function packChars(body: string, maxChars: number, overlapChars: number): string[] {
  // Spans leave room for a full overlap in front of them; only an overlong word may take a whole chunk.
  const spans = segment(body, maxChars - overlapChars, maxChars);
  return spans.length === 0 ? [''] : pack(body, spans, maxChars, overlapChars);
}

/** Chunks of at most `maxChars` whose embedText fits the window; a chunk that does not is cut again, smaller. */
function packWithin(heading: string, body: string, maxChars: number, overlapChars: number, window: TokenWindow): string[] {
  return packChars(body, maxChars, overlapChars).flatMap((text) => {
    const tokens = window.count(embedTextOf(heading, text));
    if (tokens <= window.maxTokens) return [text];
    // Aim a little under the proportional size: token counts are not linear in characters.
    const smaller = Math.max(2, Math.min(text.length - 1, Math.floor((text.length * window.maxTokens * 0.9) / tokens)));
    return packWithin(heading, text, smaller, Math.min(overlapChars, Math.floor(smaller / 2)), window);
  });
}

/** The share of the window a title may take in what is embedded: the text is what a chunk is about. */
const titleShare = 1 / 4;

/** The title, cut after its last whole word that keeps it within its share of the window. */
function headingWithin(title: string, window: TokenWindow): string {
  const budget = Math.floor(window.maxTokens * titleShare);
  if (window.count(title) <= budget) return title;
  const words = title.split(/\s+/);
  let low = 0;
  let high = words.length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (window.count(words.slice(0, middle).join(' ')) <= budget) low = middle;
    else high = middle - 1;
  }
  return words.slice(0, low).join(' ');
}

function embedTextOf(title: string, text: string): string {
  if (!text) return title;
  return title ? `${title}\n\n${text}` : text;
}

/** Greedy packing: a chunk takes spans until the next one would not fit, then the next chunk begins. */
function pack(body: string, spans: Span[], maxChars: number, overlapChars: number): string[] {
  const texts: string[] = [];
  let chunkStart = spans[0]!.start;
  for (let i = 1; i < spans.length; i++) {
    const span = spans[i]!;
    const previous = spans[i - 1]!;
    const fits = span.end - chunkStart <= maxChars;
    const paragraphBreak =
      span.paragraphStart && previous.end - chunkStart >= maxChars / 2 && span.paragraphEnd - chunkStart > maxChars;
    if (fits && !paragraphBreak) continue;
    texts.push(body.slice(chunkStart, previous.end));
    chunkStart = overlapStart(body, spans, i, chunkStart, maxChars, overlapChars);
  }
  texts.push(body.slice(chunkStart, spans.at(-1)!.end));
  return texts;
}

/**
 * Where the chunk that begins with `spans[next]` starts: as far back into the previous chunk (which
 * started at `previousStart` and ended with `spans[next - 1]`) as the overlap budget allows, and never
 * so far that `spans[next]` would no longer fit.
 */
function overlapStart(
  body: string,
  spans: Span[],
  next: number,
  previousStart: number,
  maxChars: number,
  overlapChars: number,
): number {
  const last = spans[next - 1]!;
  const earliest = Math.max(previousStart, last.end - overlapChars, spans[next]!.end - maxChars);
  if (last.start >= earliest) {
    let first = next - 1;
    while (first > 0 && spans[first - 1]!.start >= earliest) first--;
    return spans[first]!.start;
  }
  for (let i = Math.max(earliest, last.start + 1); i < last.end; i++) {
    if (isWordStart(body, i)) return i;
  }
  return spans[next]!.start;
}

function resolveOptions(options: ChunkOptions): { maxChars: number; overlapChars: number } {
  const maxChars = options.maxChars ?? DEFAULT_MAX_CHARS;
  const overlapChars = options.overlapChars ?? DEFAULT_OVERLAP_CHARS;
  if (!Number.isInteger(maxChars) || maxChars < 2) {
    throw new RangeError(`maxChars must be an integer of at least 2 (got ${maxChars})`);
  }
  if (!Number.isInteger(overlapChars) || overlapChars < 0 || overlapChars > maxChars / 2) {
    throw new RangeError(`overlapChars must be an integer from 0 to maxChars / 2 (got ${overlapChars})`);
  }
  return { maxChars, overlapChars };
}
