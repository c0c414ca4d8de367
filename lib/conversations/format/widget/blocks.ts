import { formatInline } from './inline.js';

/*
 * Block structure for the widget formatter, one input line at a time (with the state a fence or table
 * needs): code fences become plain lines, tables one line per row, headings bold lines, lists `- ` and
 * `1. ` items; blockquote markers are dropped and rules become paragraph breaks.
 */

const FENCE_OPEN = /^\s{0,3}(`{3,}|~{3,})/;
const BLOCKQUOTE = /^\s{0,3}(?:>\s?)+/;
// The heading's text is everything after its marker (`[^]`: nothing to give back, so a long run of spaces
// before an odd ending cannot make it backtrack); the closing `#`s are taken off in code (`headingText`).
const HEADING = /^\s{0,3}(#{1,6})(?:[ \t]+([^]*))?$/;
const SETEXT_UNDERLINE = /^\s{0,3}=+\s*$/;
const RULE = /^\s{0,3}(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,})$/;
const BULLET = /^\s*[-*+•‣▪◦][ \t]+(.*)$/;
const ORDERED = /^\s*(\d{1,9})[.)][ \t]+(.*)$/;
const EMPTY_ITEM = /^\s*(?:[-*+•]|\d{1,9}[.)])\s*$/;
// `[1]: https://example.com "Title"` — a reference definition; shown as `[1] https://…` rather than hidden.
const LINK_DEFINITION =
  /^\s{0,3}\[([^\]]+)\]:\s*<?((?:[a-z][\w+.-]*:|www\.|\/)[^\s>]*)>?(?:\s+(?:"[^"]*"|'[^']*'|\([^)]*\)))?\s*$/i;
// Tested on the trimmed line: no two whitespace runs are ever adjacent, so a long run cannot make it
// backtrack quadratically (as `\s*\|?\s*$` did: 32k spaces after `|-` took about a second).
const TABLE_SEPARATOR = /^\|?\s*:?-+:?(?:\s*\|\s*:?-+:?)*\s*\|?$/;
const TABLE_EDGE_ROW = /^\s*\|.*\|\s*$/;

/** The output lines for the markdown `lines`: paragraphs separated by blank lines, inline markup formatted. */
export function formatBlocks(lines: string[]): string[] {
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
  if (heading) return headingLines(headingText(heading[2] ?? ''));
  const bullet = BULLET.exec(line);
  if (bullet) return [`- ${formatInline(bullet[1]!)}`];
  const ordered = ORDERED.exec(line);
  if (ordered) return [`${ordered[1]}. ${formatInline(ordered[2]!)}`];
  const definition = LINK_DEFINITION.exec(line);
  if (definition) return [formatInline(`[${definition[1]}] ${definition[2]}`)];
  return [formatInline(line.trim())];
}

/** A heading's text without its optional closing sequence (`## Title ##`): `#`s at the end after a space, or alone. */
function headingText(text: string): string {
  const trimmed = text.trimEnd();
  let end = trimmed.length;
  while (end > 0 && trimmed[end - 1] === '#') end--;
  if (end === trimmed.length || (end > 0 && !/[ \t]/.test(trimmed[end - 1]!))) return trimmed;
  return trimmed.slice(0, end);
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
  return line.includes('|') && line.includes('-') && TABLE_SEPARATOR.test(line.trim());
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
