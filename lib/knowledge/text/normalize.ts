import { decodeEntities, htmlToText, looksLikeHtml } from './html.js';

/*
 * The first text step of ingestion: whatever a connector delivered (HTML, markdown-ish or plain text)
 * becomes clean text with one block per line. The chunker relies on that shape: a newline is a
 * paragraph boundary, a single space separates words.
 */

// Old Mac and Windows line endings, and the Unicode/legacy line and page separators, all mean "new line".
const LINE_BREAK = /\r\n?|[\v\f\u0085\u2028\u2029]/g;
// C0/C1 controls except tab and newline (those are whitespace, handled by the collapse below).
const CONTROL = /[\0-\x08\x0e-\x1f\x7f-\x84\x86-\x9f]/g;
// Zero-width space/joiners, word joiner, BOM, soft hyphen, Mongolian vowel separator: invisible, but
// they split words for search and tokenisers ("exam\u00adple" ≠ "example").
const ZERO_WIDTH = /[\u200b-\u200d\u2060\ufeff\u00ad\u180e]/g;
// Half of a surrogate pair on its own (text cut in the wrong place upstream) cannot be encoded as UTF-8.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
// Any whitespace except a newline: tabs, no-break spaces, ideographic spaces, thin spaces…
const INLINE_SPACE = /[^\S\n]+/g;
// A line break with the spaces and blank lines around it.
const BLOCK_BREAK = / ?\n[\n ]*/g;

/**
 * Normalises item content for chunking and embedding: HTML becomes text (headings, list items, table
 * rows and paragraphs on their own lines; links as their text; images, scripts, styles and form
 * controls dropped), entities are decoded, control and zero-width characters removed, runs of spaces
 * become one space and blank lines collapse so blocks are separated by exactly one newline.
 * Text without markup keeps every character apart from those whitespace rules (`a < b` stays).
 */
export function normalizeText(input: string): string {
  const text = removeInvisible(input.replace(LINE_BREAK, '\n'));
  const plain = looksLikeHtml(text) ? htmlToText(text) : decodeEntities(text);
  // Decoding can produce new invisible characters (`&#8203;`, `&#x7f;`), hence the second pass.
  return collapseWhitespace(removeInvisible(plain));
}

/** Normalises a title the same way, on a single line. */
export function normalizeTitle(title: string): string {
  return normalizeText(title).replaceAll('\n', ' ');
}

function removeInvisible(text: string): string {
  return text.replace(CONTROL, '').replace(ZERO_WIDTH, '').replace(LONE_SURROGATE, '');
}

function collapseWhitespace(text: string): string {
  return text.replace(INLINE_SPACE, ' ').replace(BLOCK_BREAK, '\n').trim();
}
