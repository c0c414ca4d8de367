import { imageLink, markdownLink } from './links.js';

/*
 * HTML in answers, for the widget formatter: entities decoded, and tags (an LLM's, or pasted HTML)
 * turned into light markdown, so that the rest of the pipeline treats it like any other markdown.
 */

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

/**
 * Decodes numeric entities (`&#8364;`, `&#x20AC;`) and the common named ones (`&amp;`, `&nbsp;`…). Runs
 * before tags are handled, so an encoded `&lt;script&gt;` cannot slip through as a tag later.
 */
export function decodeEntities(text: string): string {
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

/** HTML → light markdown: links, images, code blocks, tables, headings, lists and emphasis converted, other known tags removed. */
export function htmlToMarkdown(text: string): string {
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
