/*
 * Light markdown: the only markup AI answers carry. The server promises nothing else reaches the
 * widget (api's format-widget.ts), but this parser trusts none of it: it turns any string into a
 * small token tree of plain text pieces, and the view builds DOM from the tree with textContent
 * only. There is no escape hatch to HTML, so `<script>` stays the nine characters it is.
 *
 * - Blocks: paragraphs separated by a blank line (single line breaks inside are kept), `- ` bullets
 *   and `1. ` numbered items.
 * - Inline: `**bold**`, `_italic_`, `` `code` ``, `[label](url)` links (http, https, mailto only;
 *   any other link shows its label as text) and citation markers `[n]`, also adjacent as `[1][2]`.
 * - Anything unbalanced or unknown stays literal text.
 *
 * Pure: no DOM, so it runs (and is tested) in Node too.
 */

export type Inline =
  | { type: 'text'; text: string }
  | { type: 'strong'; children: Inline[] }
  | { type: 'emphasis'; children: Inline[] }
  | { type: 'code'; text: string }
  | { type: 'link'; href: string; children: Inline[] }
  | { type: 'citation'; n: number }
  | { type: 'break' };

export type Block =
  { type: 'paragraph'; children: Inline[] } | { type: 'list'; ordered: boolean; start: number; items: Inline[][] };

export const LINK_SCHEMES = ['http:', 'https:', 'mailto:'] as const;
export const WEB_SCHEMES = ['http:', 'https:'] as const;

/**
 * The URL, normalised, when it is absolute and its scheme is one of `schemes`; otherwise undefined.
 * The URL parser decides, not a pattern: `java\tscript:`, ` javascript:` or `JAVASCRIPT:` all parse
 * to the `javascript:` scheme and are refused, and relative URLs have no scheme at all.
 */
export function safeHref(url: string, schemes: readonly string[] = LINK_SCHEMES): string | undefined {
  try {
    const parsed = new URL(url);
    return schemes.includes(parsed.protocol) ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}

const BULLET = /^\s*- (.*)$/;
const NUMBERED = /^\s*(\d{1,9})\. (.*)$/;

/** The blocks of a light-markdown text. */
export function parseLightMarkdown(text: string): Block[] {
  const blocks: Block[] = [];
  let paragraph: string[] = [];
  let list: Extract<Block, { type: 'list' }> | undefined;

  const endParagraph = () => {
    if (paragraph.length) blocks.push({ type: 'paragraph', children: joinLines(paragraph) });
    paragraph = [];
  };
  const endList = () => {
    if (list) blocks.push(list);
    list = undefined;
  };

  for (const line of text.split(/\r\n?|\n/)) {
    if (!line.trim()) {
      endParagraph();
      endList();
      continue;
    }
    const numbered = NUMBERED.exec(line);
    const item = numbered ? numbered[2]! : BULLET.exec(line)?.[1];
    if (item === undefined) {
      endList();
      paragraph.push(line.trim());
      continue;
    }
    endParagraph();
    const ordered = numbered !== null;
    if (list?.ordered !== ordered) {
      endList();
      list = { type: 'list', ordered, start: numbered ? Number(numbered[1]) : 1, items: [] };
    }
    list.items.push(parseInline(item.trim()));
  }
  endParagraph();
  endList();
  return blocks;
}

function joinLines(lines: string[]): Inline[] {
  return lines.flatMap((line, i): Inline[] => (i ? [{ type: 'break' }, ...parseInline(line)] : parseInline(line)));
}

const LINK = /\[([^[\]\n]+)\]\(([^\s()]+)\)/y;
const CITATION = /\[(\d{1,3})\]/y;
const WORD_CHARACTER = /[\p{L}\p{N}_]/u;

/** The inline tokens of one line. */
export function parseInline(text: string): Inline[] {
  const tokens: Inline[] = [];
  let textStart = 0;
  const pushText = (end: number) => {
    if (end > textStart) tokens.push({ type: 'text', text: text.slice(textStart, end) });
  };

  // The characters that may start markup; everything between them is text. One regex per call,
  // since bold and italic parse their content recursively.
  const markupStart = /[`*_[]/g;
  for (let match = markupStart.exec(text); match; match = markupStart.exec(text)) {
    const found = readMarkup(text, match.index);
    if (!found) continue;
    pushText(match.index);
    tokens.push(...found.tokens);
    textStart = found.end;
    markupStart.lastIndex = found.end;
  }
  pushText(text.length);
  return mergeText(tokens);
}

interface Markup {
  tokens: Inline[];
  end: number;
}

/** The markup that starts at `at`, or undefined when the character there is just text. */
function readMarkup(text: string, at: number): Markup | undefined {
  switch (text[at]) {
    case '`': {
      const close = text.indexOf('`', at + 1);
      return close > at + 1 ? { tokens: [{ type: 'code', text: text.slice(at + 1, close) }], end: close + 1 } : undefined;
    }
    case '*':
      return text[at + 1] === '*' ? readStrong(text, at) : undefined;
    case '_':
      return readEmphasis(text, at);
    case '[':
      return readLink(text, at) ?? readCitation(text, at);
  }
  return undefined;
}

/** `**…**`: the closing marker follows a non-space character; empty or blank content is no markup. */
function readStrong(text: string, at: number): Markup | undefined {
  const from = at + 2;
  if (!text[from] || /\s/.test(text[from])) return undefined;
  let close = text.indexOf('**', from + 1);
  while (close !== -1 && /\s/.test(text[close - 1]!)) close = text.indexOf('**', close + 1);
  if (close === -1) return undefined;
  // The inner text is shorter than the outer one, so this recursion ends.
  return { tokens: [{ type: 'strong', children: parseInline(text.slice(from, close)) }], end: close + 2 };
}

/** `_…_`, but not inside words: `snake_case_name` stays as written. */
function readEmphasis(text: string, at: number): Markup | undefined {
  const before = text[at - 1];
  const first = text[at + 1];
  if ((before && WORD_CHARACTER.test(before)) || !first || /[\s_]/.test(first)) return undefined;
  for (let close = text.indexOf('_', at + 2); close !== -1; close = text.indexOf('_', close + 1)) {
    const after = text[close + 1];
    if (/\s/.test(text[close - 1]!) || (after && WORD_CHARACTER.test(after))) continue;
    return { tokens: [{ type: 'emphasis', children: parseInline(text.slice(at + 1, close)) }], end: close + 1 };
  }
  return undefined;
}

/** `[label](url)`: a link when the URL is allowed, else just its label, as text. */
function readLink(text: string, at: number): Markup | undefined {
  LINK.lastIndex = at;
  const match = LINK.exec(text);
  if (!match) return undefined;
  const [whole, label, url] = match as unknown as [string, string, string];
  const href = safeHref(url);
  const tokens: Inline[] = href ? [{ type: 'link', href, children: parseInline(label) }] : [{ type: 'text', text: label }];
  return { tokens, end: at + whole.length };
}

function readCitation(text: string, at: number): Markup | undefined {
  CITATION.lastIndex = at;
  const match = CITATION.exec(text);
  const n = Number(match?.[1]);
  return match && n > 0 ? { tokens: [{ type: 'citation', n }], end: at + match[0].length } : undefined;
}

/** Adjacent text tokens as one, so the tree is the same however the text was split. */
function mergeText(tokens: Inline[]): Inline[] {
  const merged: Inline[] = [];
  for (const token of tokens) {
    const last = merged.at(-1);
    if (token.type === 'text' && last?.type === 'text')
      merged[merged.length - 1] = { type: 'text', text: last.text + token.text };
    else merged.push(token);
  }
  return merged;
}
