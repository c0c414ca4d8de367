import { compile, type HtmlToTextOptions, type SelectorDefinition } from 'html-to-text';

/*
 * HTML → plain text for ingestion. Items come from CMSs and shops, so the same field may hold a full
 * document, a fragment, plain text with a few inline tags, or plain text that merely mentions `<`.
 * The text feeds embeddings and answers: keep words and block structure, drop presentation.
 */

// Tag names we trust as evidence of markup. A generic `<\w+…>` would also match `Vector<int>` or
// `if a<b and c>d`; an ordinary HTML element name followed by a real tag ending rarely appears in prose.
const KNOWN_TAG =
  /<\/?(?:a|abbr|address|article|aside|b|blockquote|body|br|button|caption|center|code|col|colgroup|dd|del|details|div|dl|dt|em|figcaption|figure|font|footer|form|h[1-6]|head|header|hr|html|i|iframe|img|input|ins|label|li|link|main|mark|meta|nav|noscript|ol|option|p|picture|pre|q|s|script|section|select|small|source|span|strike|strong|style|sub|summary|sup|svg|table|tbody|td|template|tfoot|th|thead|title|tr|u|ul|video|wbr)(?=[\s/>])[^<>]*>|<!--|<!doctype\s/i;

// Block-level markup means the author laid out the text with tags, so source newlines are just
// indentation. Without it (plain text with a <strong> here and there) the newlines are the layout.
const BLOCK_TAG = /<\/?(?:article|blockquote|br|div|dl|h[1-6]|li|ol|p|pre|section|table|tr|ul)(?=[\s/>])/i;

// A strictly terminated entity (`&amp;`, `&#8364;`, `&#x2603;`). Plain text only decodes these: the
// browser rule that also decodes `&copy` or `&para` without `;` would corrupt URLs such as `?a=1&para=2`.
const TERMINATED_ENTITY = /&(?:#\d+|#x[\da-f]+|[a-z][a-z\d]*);/i;
const BARE_AMPERSAND = /&(?!(?:#\d+|#x[\da-f]+|[a-z][a-z\d]*);)/gi;

const DROPPED = ['script', 'style', 'noscript', 'template', 'head', 'title', 'svg', 'canvas', 'iframe', 'object'];
// Form controls are shop chrome ("Add to cart", variant pickers), not knowledge.
const FORM_CONTROLS = ['button', 'select', 'textarea'];
// Blocks html-to-text renders inline by default, which would glue "Term" and "Definition" together.
const EXTRA_BLOCKS = ['section', 'figure', 'figcaption', 'details', 'summary', 'address', 'caption', 'center', 'dl', 'dt', 'dd'];
const HEADINGS = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'];
const CELL_AFTER_CELL = ['td + td', 'th + th', 'th + td', 'td + th'];

const selectors: SelectorDefinition[] = [
  ...HEADINGS.map((selector) => ({ selector, options: { uppercase: false } })),
  { selector: 'a', options: { ignoreHref: true } },
  { selector: 'img', format: 'skip' },
  { selector: 'ul', options: { itemPrefix: '- ' } },
  { selector: 'blockquote', format: 'block' },
  // An empty block keeps the text on either side apart without drawing a line of dashes.
  { selector: 'hr', format: 'blockString', options: { string: '' } },
  // Tables as one line per row, cells separated by " | ": readable for the model, no column padding.
  { selector: 'table', format: 'block' },
  { selector: 'tr', format: 'block', options: { leadingLineBreaks: 1, trailingLineBreaks: 1 } },
  { selector: 'td', format: 'inline' },
  { selector: 'th', format: 'inline' },
  ...CELL_AFTER_CELL.map((selector) => ({ selector, format: 'inlineSurround', options: { prefix: ' | ' } })),
  ...[...DROPPED, ...FORM_CONTROLS].map((selector) => ({ selector, format: 'skip' })),
  ...EXTRA_BLOCKS.map((selector) => ({ selector, format: 'block' })),
];

const baseOptions: HtmlToTextOptions = {
  wordwrap: false,
  // The HTML4 default also counts U+200B as whitespace; we delete it instead, as for plain text.
  whitespaceCharacters: ' \t\r\n\f',
  selectors,
};

// `compile` is `convert` with the options parsed once, as html-to-text recommends for batches.
const convertBlockHtml = compile(baseOptions);
const convertInlineHtml = compile({ ...baseOptions, preserveNewlines: true });

/** True when the text contains something that is unmistakably an HTML tag, comment or doctype. */
export function looksLikeHtml(text: string): boolean {
  return KNOWN_TAG.test(text);
}

/** Converts HTML (document or fragment) to text; blocks end up on their own lines. */
export function htmlToText(html: string): string {
  return BLOCK_TAG.test(html) ? convertBlockHtml(html) : convertInlineHtml(html);
}

/**
 * Decodes `&…;` entities in text that has no markup. `<` and stray `&` are escaped first so the HTML
 * parser keeps them as the literal characters they are; it only collapses runs of spaces on the way.
 */
export function decodeEntities(text: string): string {
  if (!TERMINATED_ENTITY.test(text)) return text;
  return convertInlineHtml(text.replace(BARE_AMPERSAND, '&amp;').replaceAll('<', '&lt;'));
}
