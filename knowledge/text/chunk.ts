import { isWordStart, segment, type Span } from './segment.js';

/*
 * The second text step of ingestion: a normalised body becomes chunks sized for retrieval. Chunks are
 * slices of the body (never rebuilt from pieces), so packing a 100k-character body stays linear.
 */

export interface Chunk {
  index: number;
  /** The chunk body, a slice of the input body; empty only for an item without a body. */
  text: string;
  /** What gets embedded: the title, a blank line, then the text, so every chunk carries its item's topic. */
  embedText: string;
}

export interface ChunkOptions {
  /** Upper bound on `text.length` (UTF-16 code units). Default 1000. */
  maxChars?: number;
  /** Upper bound on the text a chunk repeats from the previous one. Default 150; at most maxChars / 2. */
  overlapChars?: number;
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
 */
export function chunkText(title: string, body: string, options: ChunkOptions = {}): Chunk[] {
  const { maxChars, overlapChars } = resolveOptions(options);
  const heading = title.trim();
  // Spans leave room for a full overlap in front of them; only an overlong word may take a whole chunk.
  const spans = segment(body, maxChars - overlapChars, maxChars);
  const texts = spans.length === 0 ? [''] : pack(body, spans, maxChars, overlapChars);
  return texts.map((text, index) => ({ index, text, embedText: embedTextOf(heading, text) }));
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

function resolveOptions(options: ChunkOptions): Required<ChunkOptions> {
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
