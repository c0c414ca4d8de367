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
 */

// Placeholders for finished inline pieces (code spans, links), so later rules cannot touch them. The
// characters are private-use code points, removed from the input first.
const TOKEN_OPEN = '\uE000';
const TOKEN_CLOSE = '\uE001';
const TOKEN = /\uE000(\d+)\uE001/g;

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

function normaliseInput(text: string): string {
  return text
    .replace(/\r\n?|[\u2028\u2029]/g, '\n')
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\uE000\uE001]/g, '')
    .replace(/\u00A0/g, ' ');
}

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  ndash: '–',
  mdash: '—',
  hellip: '…',
};

// Decoded before tags are handled, so an encoded `&lt;script&gt;` cannot slip through as a tag later.
function decodeEntities(text: string): string {
  return text.replace(
    /&(?:#(\d{1,7})|#x([\da-f]{1,6})|([a-z]{2,8}));/gi,
    (entity, decimal?: string, hex?: string, name?: string) => {
      if (name !== undefined) return NAMED_ENTITIES[name.toLowerCase()] ?? entity;
      const codePoint = decimal !== undefined ? Number(decimal) : parseInt(hex ?? '', 16);
      const printable = codePoint >= 0x20 && codePoint <= 0x10ffff && !(codePoint >= 0xd800 && codePoint <= 0xdfff);
      return printable && codePoint !== 0x7f ? String.fromCodePoint(codePoint) : entity;
    },
  );
}

// ---------------------------------------------------------------------------------------------------
// HTML → light markdown (the rest of the pipeline then treats it like any other markdown)

// A tag in the strict shape browsers would also read as one: a name, then attributes that look like
// attributes. `if (a<b && c>d)` in code is therefore left alone here (and neutralised at the end).
const ATTRIBUTES = String.raw`((?:\s+[a-zA-Z_:][-\w:.]*(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>\`]+))?)*)\s*\/?`;
const tag = (names: string) => new RegExp(`<\\/?(?:${names})${ATTRIBUTES}>`, 'gi');
const openingTag = (name: string) => new RegExp(`<${name}${ATTRIBUTES}>`, 'gi');
const closingTag = (names: string) => new RegExp(`<\\/(?:${names})\\s*>`, 'gi');

// Element names removed as markup once the meaningful ones are converted. Anything else that looks
// like a tag is neutralised at the end instead, so `Vector<int>` keeps its text.
const KNOWN_TAG = tag(
  'a|abbr|address|article|aside|audio|b|base|bdi|bdo|blockquote|body|br|button|canvas|caption|center|cite|code|col|colgroup|data|dd|del|details|dfn|dialog|div|dl|dt|em|embed|fieldset|figcaption|figure|font|footer|form|h[1-6]|head|header|hr|html|i|iframe|img|input|ins|kbd|label|legend|li|link|main|map|mark|meta|meter|nav|noscript|object|ol|optgroup|option|output|p|param|picture|pre|progress|q|rp|rt|ruby|s|samp|script|section|select|small|source|span|strike|strong|style|sub|summary|sup|svg|table|tbody|td|template|textarea|tfoot|th|thead|time|title|tr|track|tt|u|ul|var|video|wbr',
);
const BLOCK_TAG = tag(
  'p|div|section|article|header|footer|aside|main|nav|blockquote|ul|ol|dl|dt|dd|table|figure|figcaption|caption|details|summary|address|form|fieldset|body|html',
);
const TABLE_TAG = tag('table|thead|tbody|tfoot|tr|td|th');

function htmlToMarkdown(text: string): string {
  if (!text.includes('<')) return text;
  return (
    text
      .replace(/<!--[\s\S]*?(?:-->|$)/g, '')
      .replace(new RegExp(`<(script|style)${ATTRIBUTES}>[\\s\\S]*?(?:<\\/\\1\\s*>|$)`, 'gi'), '')
      .replace(/<!doctype[^<>]*>|<\?[^<>]*>|<!\[CDATA\[|\]\]>/gi, '')
      // Markdown autolinks: <https://…>, <mailto:…>, <name@example.com>
      .replace(/<((?:https?:\/\/|mailto:)[^\s<>]+)>/gi, (_, url: string) => markdownLink(url.replace(/^mailto:/i, ''), url))
      .replace(/<([^\s<>@/]+@[^\s<>@/]+\.[a-z]{2,})>/gi, (_, address: string) => markdownLink(address, `mailto:${address}`))
      .replace(new RegExp(`<a${ATTRIBUTES}>([\\s\\S]*?)<\\/a\\s*>`, 'gi'), (_, attributes: string, inner: string) =>
        markdownLink(inner.replace(KNOWN_TAG, ''), attribute(attributes, 'href') ?? ''),
      )
      .replace(openingTag('img'), (_, attributes: string) =>
        imageLink(attribute(attributes, 'alt') ?? '', attribute(attributes, 'src') ?? ''),
      )
      // <pre> is a code block: a fence, so its lines stay lines.
      .replace(new RegExp(`${openingTag('pre').source}\\s*(?:${openingTag('code').source})?`, 'gi'), '\n```\n')
      .replace(new RegExp(`(?:${closingTag('code').source}\\s*)?${closingTag('pre').source}`, 'gi'), '\n```\n')
      // Tables as markdown rows (`| a | b |`), which the block step turns into lines.
      .replace(new RegExp(`\\s*(${TABLE_TAG.source})\\s*`, 'gi'), '$1')
      .replace(openingTag('tr'), '\n|')
      .replace(closingTag('tr'), '')
      .replace(openingTag('t[dh]'), ' ')
      .replace(closingTag('t[dh]'), ' |')
      .replace(openingTag('h([1-6])'), (_, level: string) => `\n\n${'#'.repeat(Number(level))} `)
      .replace(closingTag('h[1-6]'), '\n\n')
      .replace(closingTag('li'), '\n')
      .replace(new RegExp(`\\s*${openingTag('li').source}\\s*`, 'gi'), '\n- ')
      .replace(tag('br'), '\n')
      .replace(tag('hr'), '\n\n')
      .replace(BLOCK_TAG, '\n\n')
      .replace(tag('strong|b'), '**')
      .replace(tag('em|i'), '_')
      .replace(tag('code|kbd|samp|tt'), '`')
      .replace(tag('del|s|strike'), '~~')
      .replace(KNOWN_TAG, '')
  );
}

function attribute(attributes: string, name: string): string | undefined {
  const match = new RegExp(`(?:^|\\s)${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s"'=<>\`]+))`, 'i').exec(attributes);
  return match ? (match[1] ?? match[2] ?? match[3]) : undefined;
}

// ---------------------------------------------------------------------------------------------------
// Blocks: one input line at a time, with the state a fence or table needs

const FENCE_OPEN = /^\s{0,3}(`{3,}|~{3,})/;
const BLOCKQUOTE = /^\s{0,3}(?:>\s?)+/;
const HEADING = /^\s{0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const SETEXT_UNDERLINE = /^\s{0,3}=+\s*$/;
const RULE = /^\s{0,3}(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,})$/;
const BULLET = /^\s*[-*+•‣▪◦][ \t]+(.*)$/;
const ORDERED = /^\s*(\d{1,9})[.)][ \t]+(.*)$/;
const EMPTY_ITEM = /^\s*(?:[-*+•]|\d{1,9}[.)])\s*$/;
// `[1]: https://example.com "Title"` — a reference definition; shown as `[1] https://…` rather than hidden.
const LINK_DEFINITION =
  /^\s{0,3}\[([^\]]+)\]:\s*<?((?:[a-z][\w+.-]*:|www\.|\/)[^\s>]*)>?(?:\s+(?:"[^"]*"|'[^']*'|\([^)]*\)))?\s*$/i;
const TABLE_SEPARATOR = /^\s*\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*$/;
const TABLE_EDGE_ROW = /^\s*\|.*\|\s*$/;

function formatBlocks(lines: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.replace(BLOCKQUOTE, '');

    const fence = FENCE_OPEN.exec(line);
    if (fence) {
      // Code keeps its lines (and indentation) as written; an unclosed fence runs to the end.
      const marker = fence[1]!;
      const closing = new RegExp(`^\\s{0,3}${marker[0] === '`' ? '`' : '~'}{${marker.length},}\\s*$`);
      out.push('');
      for (i++; i < lines.length && !closing.test(lines[i]!); i++) out.push(lines[i]!);
      out.push('');
      continue;
    }

    if (startsTable(line, lines[i + 1])) {
      out.push('');
      for (; i < lines.length && isTableLine(lines[i]!.replace(BLOCKQUOTE, '')); i++) {
        const row = lines[i]!.replace(BLOCKQUOTE, '');
        if (!isTableSeparator(row)) out.push(tableRow(row));
      }
      i--;
      out.push('');
      continue;
    }

    if (SETEXT_UNDERLINE.test(line)) {
      // The paragraph line just written was a heading (`Title` over `=====`).
      const previous = out.pop() ?? '';
      out.push(...(isParagraphLine(previous) ? ['', `**${previous.replace(/\*\*/g, '').trim()}**`] : [previous, '']));
      continue;
    }

    out.push(...formatLine(line));
  }
  return out;
}

function isParagraphLine(line: string): boolean {
  return line.trim() !== '' && !/^(?:- |\d+\. |\*\*)/.test(line);
}

/** The output for one line outside code and tables. */
function formatLine(line: string): string[] {
  if (line.trim() === '' || RULE.test(line) || EMPTY_ITEM.test(line)) return [''];
  const heading = HEADING.exec(line);
  if (heading) return headingLines(heading[2] ?? '');
  const bullet = BULLET.exec(line);
  if (bullet) return [`- ${formatInline(bullet[1]!)}`];
  const ordered = ORDERED.exec(line);
  if (ordered) return [`${ordered[1]}. ${formatInline(ordered[2]!)}`];
  const definition = LINK_DEFINITION.exec(line);
  if (definition) return [formatInline(`[${definition[1]}] ${definition[2]}`)];
  return [formatInline(line.trim())];
}

function headingLines(text: string): string[] {
  const inline = formatInline(text.replace(/\*\*|__/g, '').trim());
  return inline ? ['', `**${inline}**`] : [''];
}

function startsTable(line: string, next: string | undefined): boolean {
  if (!line.includes('|') || isTableSeparator(line)) return false;
  return TABLE_EDGE_ROW.test(line) || (next !== undefined && isTableSeparator(next.replace(BLOCKQUOTE, '')));
}

function isTableSeparator(line: string): boolean {
  return line.includes('|') && line.includes('-') && TABLE_SEPARATOR.test(line);
}

function isTableLine(line: string): boolean {
  return line.includes('|') && line.trim() !== '';
}

/** `| a | b |` → `a – b`; empty cells are left out, `\|` is a literal pipe. */
function tableRow(line: string): string {
  const cells = line
    .trim()
    .replace(/^\|/, '')
    .replace(/(?<!\\)\|$/, '')
    .split(/(?<!\\)\|/)
    .map((cell) => cell.replace(/\\\|/g, '|').trim())
    .filter((cell) => cell !== '');
  return formatInline(cells.join(' – '));
}

// ---------------------------------------------------------------------------------------------------
// Inline: code spans and links first (as tokens), then bare URLs, citations and emphasis

// `[label](url "title")`; the URL may hold one level of balanced parentheses or be written as `<url>`.
const LINK_URL = String.raw`\(\s*(<[^<>\n]*>|(?:[^\s()]|\([^\s()]*\))*)(?:\s+(?:"[^"]*"|'[^']*'|\([^()]*\)))?\s*\)`;
const IMAGE = new RegExp(String.raw`!\[([^\[\]]*)\]${LINK_URL}`, 'g');
const LINK = new RegExp(String.raw`\[([^\[\]]*)\]${LINK_URL}`, 'g');
const BARE_URL = /(?<![\w@/.\]])(?:https?:\/\/|www\.)[^\s<>"`*\[\]{}|\\^\uE000\uE001]+/gi;
const CODE_SPAN = /(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/g;
const ESCAPE = /\\([!-/:-@[-`{-~])/g;
// `[1]`, `[1, 2]`, `[1-3]`, `[^1]`, `[Source 2]`, `[Quelle 3]`.
const CITATION = /\[\^?\s*(?:(?:sources?|refs?|quellen?)\.?\s*:?\s*)?(\d{1,3}(?:\s*(?:[,;&–-]|and|und)\s*\d{1,3})*)\s*\]/gi;

function formatInline(text: string): string {
  const tokens: string[] = [];
  const keep = (piece: string) => `${TOKEN_OPEN}${tokens.push(piece) - 1}${TOKEN_CLOSE}`;
  const restore = (piece: string) => restoreTokens(piece, tokens);

  let s = text.replace(CODE_SPAN, (_, __: string, code: string) => {
    const content = code.trim();
    return content.includes('`') ? keep(content) : keep(`\`${content}\``);
  });
  s = s.replace(ESCAPE, (_, char: string) => keep(char));
  s = s.replace(IMAGE, (_, alt: string, url: string) => keep(imageLink(restore(alt), url)));
  s = s.replace(LINK, (_, label: string, url: string) => keep(markdownLink(restore(label), url)));
  s = s.replace(BARE_URL, (match) => {
    const url = trimUrlEnd(match);
    const href = allowedHref(url, WEB);
    return href ? keep(markdownLink(url, href)) + match.slice(url.length) : match;
  });
  s = normaliseCitations(s);
  s = s
    .replace(/\*\*\*(?=\S)(.{1,500}?)(?<=\S)\*\*\*/g, '**_$1_**')
    .replace(/(?<![\p{L}\p{N}_])___(?=\S)(.{1,500}?)(?<=\S)___(?![\p{L}\p{N}_])/gu, '**_$1_**')
    .replace(/(?<![\p{L}\p{N}_])__(?=\S)(.{1,500}?)(?<=\S)__(?![\p{L}\p{N}_])/gu, '**$1**')
    .replace(/(?<![\p{L}\p{N}*\\])\*(?=[^\s*])(.{1,500}?)(?<=[^\s*])\*(?![\p{L}\p{N}*])/gu, '_$1_');
  return restore(s);
}

function restoreTokens(text: string, tokens: string[]): string {
  let s = text;
  for (let depth = 0; depth < 4 && s.includes(TOKEN_OPEN); depth++)
    s = s.replace(TOKEN, (_, i: string) => tokens[Number(i)] ?? '');
  return s;
}

/** Drops trailing punctuation and an unbalanced closing parenthesis: "(see https://x.com/a)." → the URL. */
function trimUrlEnd(url: string): string {
  let end = url.length;
  let unbalanced = count(url, ')') - count(url, '(');
  for (;;) {
    const last = url[end - 1];
    if (last !== undefined && '.,;:!?\'"_~'.includes(last)) end--;
    else if (last === ')' && unbalanced > 0) {
      end--;
      unbalanced--;
    } else return url.slice(0, end);
  }
}

function count(text: string, char: string): number {
  return text.split(char).length - 1;
}

function normaliseCitations(text: string): string {
  return text
    .replace(CITATION, (marker, list: string) => {
      const numbers = citationNumbers(list);
      return numbers ? numbers.map((n) => `[${n}]`).join('') : marker;
    })
    .replace(/(\[\d+\])[ \t]+(?=\[\d+\])/g, '$1')
    .replace(/(\[\d+\])\1+/g, '$1');
}

/** `1, 2` → [1, 2]; `1-3` → [1, 2, 3]; undefined when it does not read as citation numbers. */
function citationNumbers(list: string): number[] | undefined {
  const numbers: number[] = [];
  for (const part of list.split(/\s*(?:[,;&]|\band\b|\bund\b)\s*/i)) {
    const range = /^(\d+)\s*[–-]\s*(\d+)$/.exec(part);
    const from = Number(range ? range[1] : part);
    const to = Number(range ? range[2] : part);
    if (!Number.isInteger(from) || !Number.isInteger(to) || from < 1 || to < from || to - from > 20) return undefined;
    for (let n = from; n <= to; n++) numbers.push(n);
  }
  return numbers;
}

// ---------------------------------------------------------------------------------------------------
// Links

const WEB = ['http:', 'https:'] as const;
const WEB_AND_MAIL = ['http:', 'https:', 'mailto:'] as const;

/** `[label](url)` when `url` is http, https or mailto; otherwise just the label text. */
function markdownLink(label: string, url: string): string {
  const href = allowedHref(url, WEB_AND_MAIL);
  const text = linkLabel(label);
  if (!href) return text;
  return `[${text || href.replace(/^mailto:/, '')}](${href})`;
}

/** Images become a link to the image (http/https only), labelled with their alt text or else the URL. */
function imageLink(alt: string, url: string): string {
  const href = allowedHref(url, WEB);
  const text = linkLabel(alt);
  return href ? `[${text || href}](${href})` : text;
}

function linkLabel(label: string): string {
  let text = label.replace(/[[\]]/g, '').replace(/\s+/g, ' ').trim();
  for (let wrapped = /^(\*\*|__|\*|_|`)(.+)\1$/.exec(text); wrapped; wrapped = /^(\*\*|__|\*|_|`)(.+)\1$/.exec(text)) {
    text = wrapped[2]!.trim();
  }
  return text;
}

/**
 * The URL as the widget may link it, or undefined when its scheme is not allowed (javascript:, data:,
 * relative paths…). The scheme is lower-cased and characters that would end a markdown link early
 * (spaces, parentheses, angle brackets, quotes) are percent-encoded.
 */
function allowedHref(raw: string, schemes: readonly string[]): string | undefined {
  let url = raw.trim();
  if (url.startsWith('<') && url.endsWith('>')) url = url.slice(1, -1).trim();
  if (/^www\./i.test(url)) url = `https://${url}`;
  if (!url || /[\u0000-\u001F\u007F\\]/.test(url)) return undefined;
  if (!/^(?:https?:\/\/[^\s/?#]|mailto:[^\s])/i.test(url)) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (!schemes.includes(parsed.protocol)) return undefined;
  if (parsed.protocol !== 'mailto:' && !parsed.hostname) return undefined;
  return `${parsed.protocol}${url.slice(url.indexOf(':') + 1)}`.replace(
    /[\s()<>"`]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`,
  );
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
