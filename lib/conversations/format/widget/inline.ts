import { WEB, allowedHref, imageLink, markdownLink, trimUrlEnd } from './links.js';

/*
 * Inline markup for the widget formatter: code spans, escapes and links first (kept as tokens), then
 * bare URLs, citation markers (`[1, 2]` → `[1][2]`) and emphasis in the widget's `**bold**` / `_italic_`.
 */

// Placeholders for finished inline pieces (code spans, links), so later rules cannot touch them. The
// characters are private-use code points, removed from the input first (by `formatForWidget`).
const TOKEN_OPEN = '\uE000';
const TOKEN_CLOSE = '\uE001';
const TOKEN = /\uE000(\d+)\uE001/g;

// `[label](url "title")`; the URL may hold one level of balanced parentheses or be written as `<url>`.
const LINK_URL = String.raw`\(\s*(<[^<>\n]*>|(?:[^\s()]|\([^\s()]*\))*)(?:\s+(?:"[^"]*"|'[^']*'|\([^()]*\)))?\s*\)`;
const IMAGE = new RegExp(String.raw`!\[([^\[\]]*)\]${LINK_URL}`, 'g');
const LINK = new RegExp(String.raw`\[([^\[\]]*)\]${LINK_URL}`, 'g');
const BARE_URL = /(?<![\w@/.\]])(?:https?:\/\/|www\.)[^\s<>"`*\[\]{}|\\^\uE000\uE001]+/gi;
const CODE_SPAN = /(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/g;
const ESCAPE = /\\([!-/:-@[-`{-~])/g;
// `[1]`, `[1, 2]`, `[1-3]`, `[^1]`, `[Source 2]`, `[Quelle 3]`.
const CITATION = /\[\^?\s*(?:(?:sources?|refs?|quellen?)\.?\s*:?\s*)?(\d{1,3}(?:\s*(?:[,;&–-]|and|und)\s*\d{1,3})*)\s*\]/gi;

/** One line of text with its inline markup mapped onto the widget's subset. */
export function formatInline(text: string): string {
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
