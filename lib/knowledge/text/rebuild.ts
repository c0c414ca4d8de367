import { DEFAULT_OVERLAP_CHARS } from './chunk.js';
import { isWordBoundary } from './segment.js';

/*
 * The way back from chunks to the body they were cut from, for re-embedding an item without asking
 * its owner to send it again. Chunk texts are slices of the normalised body, and a chunk may begin by
 * repeating the end of what came before it (the overlap); removing that repetition gives the body back.
 */

/**
 * The normalised body that chunk texts (in chunk order) were cut from, by `chunkText` with an overlap
 * of at most `overlapChars`. Each chunk is joined to what is rebuilt so far at its overlap: the longest
 * start of the chunk, no longer than the overlap bound and beginning at a word boundary, that the
 * rebuilt text ends with (an overlap may reach back further than the previous chunk when that chunk
 * was short). The bound keeps repetitive text from being taken for a longer overlap than it was.
 * A chunk that repeats nothing follows on a new line, the paragraph break of a normalised body: the
 * spacing between two chunks that did not overlap is not kept in them.
 */
export function rebuildBody(chunkTexts: string[], { overlapChars = DEFAULT_OVERLAP_CHARS } = {}): string {
  let body = '';
  for (const text of chunkTexts) {
    if (!text) continue;
    if (!body) {
      body = text;
      continue;
    }
    const overlap = overlapLength(body, text, overlapChars);
    body = overlap > 0 ? body + text.slice(overlap) : `${body}\n${text}`;
  }
  return body;
}

/**
 * The length of the longest start of `next`, at most `limit` long, that `body` ends with and that
 * begins at a word boundary of `body`; 0 when there is none. A border search (the prefix function of
 * `next`, then a scan of the body's tail), so it stays linear in the chunk's length.
 */
function overlapLength(body: string, next: string, limit: number): number {
  const tail = body.slice(-next.length);
  const border = prefixFunction(next);
  // How much of `next` the end of the tail matches.
  let matched = 0;
  for (let i = 0; i < tail.length; i++) {
    while (matched > 0 && (matched === next.length || tail[i] !== next[matched])) matched = border[matched - 1]!;
    if (tail[i] === next[matched]) matched++;
  }
  // The longest match first; every shorter one is one of its borders.
  while (matched > limit || (matched > 0 && !isWordBoundary(body, body.length - matched))) matched = border[matched - 1]!;
  return matched;
}

/** `border[i]`: the length of the longest proper prefix of `text.slice(0, i + 1)` that is also its suffix. */
function prefixFunction(text: string): number[] {
  const border = new Array<number>(text.length).fill(0);
  for (let i = 1; i < text.length; i++) {
    let k = border[i - 1]!;
    while (k > 0 && text[i] !== text[k]) k = border[k - 1]!;
    if (text[i] === text[k]) k++;
    border[i] = k;
  }
  return border;
}
