import { formatBlocks } from './widget/blocks.js';
import { decodeEntities, htmlToMarkdown } from './widget/html.js';
import { WEB_AND_MAIL, allowedHref } from './widget/links.js';

/*
 * Answer text → what the chat widget shows.
 *
 * Answers come from the extractive composer or from an LLM, so they may hold anything an LLM writes:
 * headings, tables, raw HTML, images, code fences, both emphasis styles, links with any scheme and
 * citation markers in several shapes. The widget renders text, never HTML (it escapes everything
 * itself) and understands only a small light-markdown subset, which this module maps any input onto:
 *
 * - paragraphs separated by one blank line, `- ` bullets and `1. ` numbered items;
 * - `**bold**`, `_italic_` and `` `inline code` ``;
 * - `[label](url)` links, only to http, https and mailto URLs;
 * - citation markers as adjacent `[n]`: `[1, 2]` → `[1][2]`.
 *
 * Guarantees, whatever the input: no HTML tag survives (known elements are removed with their markup,
 * `<script>`/`<style>` with their content, and any other `<` that could open a tag gets a space after
 * it, so `Vector<int>` shows as `Vector< int>`), and every `](` in the output is followed by an http,
 * https or mailto URL. Both also hold inside code, whose lines are otherwise kept as written. Common
 * entities (`&amp;`, `&nbsp;`, `&#8364;`) are decoded; all other characters are kept as they are, with
 * no escaping: the widget does that.
 *
 * The steps live beside this file: `widget-html.ts` (entities, HTML → markdown), `widget-blocks.ts`
 * (fences, tables, headings, lists), `widget-inline.ts` (code spans, links, citations, emphasis) and
 * `widget-links.ts` (allowed URLs, link and image markup).
 */

/**
 * Converts an answer in any light markdown (or an LLM's markdown/HTML mix) into the safe subset the
 * chat widget renders. Headings become bold lines, tables one line per row (cells joined by " – "),
 * images links to the image (http/https only, else their alt text), code fences plain lines, bare
 * http(s) URLs links.
 */
export function formatForWidget(text: string): string {
  const markdown = htmlToMarkdown(decodeEntities(normaliseInput(text)));
  return finish(formatBlocks(markdown.split('\n')).join('\n'));
}

// ---------------------------------------------------------------------------------------------------
// Input clean-up

// Line breaks unified; control characters and the private-use placeholders of `widget-inline.ts` removed.
function normaliseInput(text: string): string {
  return text
    .replace(/\r\n?|[\u2028\u2029]/g, '\n')
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\uE000\uE001]/g, '')
    .replace(/\u00A0/g, ' ');
}

// ---------------------------------------------------------------------------------------------------
// Whole-text finish: the two guarantees, then whitespace

// `<` followed by a letter, `/`, `!` or `?` is what could open a tag; a space after it makes it text.
const TAG_OPENING = /<(?=[A-Za-z/!?])/g;
const LINK_TARGET = /\]\(\s*([^\s()]*)/g;

function finish(text: string): string {
  return text
    .replace(TAG_OPENING, '< ')
    .replace(LINK_TARGET, (match, url: string) => (allowedHref(url, WEB_AND_MAIL) === url ? match : match.replace('](', '] (')))
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .replace(/^\n+|\n+$/g, '');
}
