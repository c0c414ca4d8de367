import { normalizeText, normalizeTitle } from '#knowledge/text/normalize.js';

/*
 * `normalizeText` takes anything that looks like markup for HTML: a text file or PDF page that merely
 * shows `<div>` would lose it. Text we know is not markup (a PDF's text, a text file, a <title>, a
 * bookmark) is escaped first, so the normalizer keeps every character and only applies its whitespace,
 * line-break and invisible-character rules.
 */

/** Normalizes text that is not markup: one block per line, every character kept. */
export function normalizePlainText(text: string): string {
  return normalizeText(escapeMarkup(text));
}

/** The same on one line: a title or heading that is text, not markup (whitespace collapsed). */
export function plainLine(text: string): string {
  return normalizeTitle(escapeMarkup(text));
}

function escapeMarkup(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;');
}
