import type { SearchableAuthor, SearchableMessage } from './documents.js';

/** A message that matched, as a search hit shows it. */
export interface MatchedMessage {
  messageId: string;
  author: SearchableAuthor;
  createdAt: string;
  agentName?: string;
  /** A short passage of the message around its first match, `…` where it was cut. */
  snippet: string;
  /** Where the query's words are in `snippet` (UTF-16 offsets, `end` excluded): the page marks them. */
  highlights: Array<{ start: number; end: number }>;
}

/** The most messages one hit shows, and the longest snippet. */
export const snippetLimits = { messages: 3, chars: 160 } as const;

/**
 * The query's words as Weaviate's `word` tokenization makes them: runs of letters and digits,
 * lower-cased. A query with none matches nothing.
 */
export function queryWords(query: string): string[] {
  return [...new Set(query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])];
}

/** Each whole-word occurrence of the words in `text`. */
function occurrences(text: string, words: string[]): Array<{ start: number; end: number }> {
  const found: Array<{ start: number; end: number }> = [];
  for (const match of text.matchAll(/[\p{L}\p{N}]+/gu))
    if (words.includes(match[0].toLowerCase())) found.push({ start: match.index, end: match.index + match[0].length });
  return found;
}

/**
 * The messages that hold the most of the query's words (then the earliest), up to
 * `snippetLimits.messages`, in conversation order, each cut to a snippet around its first match.
 */
export function matchedMessages(messages: SearchableMessage[], query: string): MatchedMessage[] {
  const words = queryWords(query);
  const scored = messages
    .map((message, position) => {
      const found = occurrences(message.text, words);
      const distinct = new Set(found.map(({ start, end }) => message.text.slice(start, end).toLowerCase())).size;
      return { message, position, found, distinct };
    })
    .filter((candidate) => candidate.found.length > 0);
  return scored
    .sort((a, b) => b.distinct - a.distinct || a.position - b.position)
    .slice(0, snippetLimits.messages)
    .sort((a, b) => a.position - b.position)
    .map(({ message, found }) => ({
      messageId: message.id,
      author: message.author,
      createdAt: message.createdAt,
      ...(message.agentName ? { agentName: message.agentName } : {}),
      ...cut(message.text, found),
    }));
}

/** A window of the text around the first match, whole words where it can, with the matches inside it. */
function cut(text: string, found: Array<{ start: number; end: number }>) {
  const words = found.map(({ start, end }) => text.slice(start, end).toLowerCase());
  // Line breaks and runs of spaces become one space: a snippet is one line.
  const flat = text.replace(/\s+/g, ' ').trim();
  const first = occurrences(flat, words)[0] ?? { start: 0, end: 0 };
  let start = Math.max(0, first.start - Math.floor(snippetLimits.chars / 3));
  const end = Math.min(flat.length, start + snippetLimits.chars);
  start = Math.max(0, end - snippetLimits.chars);
  if (start > 0) start = wordStart(flat, start, first.start);
  const stop = end < flat.length ? wordEnd(flat, end, first.end) : end;
  const lead = start > 0 ? '…' : '';
  const body = flat.slice(start, stop);
  const highlights = occurrences(body, words).map((range) => ({
    start: range.start + lead.length,
    end: range.end + lead.length,
  }));
  return { snippet: `${lead}${body}${stop < flat.length ? '…' : ''}`, highlights };
}

/** The start of the word at or after `at`, never past `ceiling` (the match). */
function wordStart(text: string, at: number, ceiling: number): number {
  const space = text.indexOf(' ', at);
  return space === -1 || space >= ceiling || space - at > 20 ? at : space + 1;
}

/** The end of the word before `at`, never before `floor` (the match). */
function wordEnd(text: string, at: number, floor: number): number {
  const space = text.lastIndexOf(' ', at);
  return space <= floor || at - space > 20 ? at : space;
}
