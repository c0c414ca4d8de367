/**
 * The model's streamed reply on its way to the visitor: what is passed on as it arrives, what is
 * held back until it is settled (the no-answer sentinel, citation markers, whitespace at the end),
 * and the citations the finished reply makes.
 */
import { noAnswerSentinel } from './answer-prompt.js';
import type { Citation, RetrievedSource, TokenSink } from '../types.js';

/**
 * Passes the reply on to the sink as it arrives, except what is not settled yet: whitespace at the
 * end, an unfinished citation marker, and an ending that may still grow into the sentinel.
 */
export class ReplyFilter {
  /** What the sink has been sent. */
  text = '';
  sentinelSeen = false;
  private pending = '';

  constructor(
    private readonly sink: TokenSink,
    private readonly sourceNumbers: Set<number>,
  ) {}

  push(delta: string): void {
    if (this.sentinelSeen) return;
    this.pending += delta;
    if (this.text === '') this.pending = this.pending.trimStart();
    if (this.pending.includes(noAnswerSentinel)) {
      this.sentinelSeen = true;
      return;
    }
    this.pending = keepKnownMarkers(this.pending, this.sourceNumbers);
    this.send(this.pending.length - unsettledLength(this.pending));
  }

  /** The reply is complete: sends what was held back, less the whitespace at its end. */
  end(): void {
    if (this.sentinelSeen) return;
    this.pending = keepKnownMarkers(this.pending, this.sourceNumbers).trimEnd();
    this.send(this.pending.length);
  }

  private send(length: number): void {
    if (length <= 0) return;
    const token = this.pending.slice(0, length);
    this.pending = this.pending.slice(length);
    this.text += token;
    this.sink.token(token);
  }
}

/** The sources the text cites, in number order; the best source when it cites none. */
export function citationsIn(text: string, sources: RetrievedSource[]): Citation[] {
  const cited = new Set([...text.matchAll(/\[(\d+)\]/g)].map((match) => Number(match[1])));
  const used = sources.filter((source) => cited.has(source.n)).sort((a, b) => a.n - b.n);
  return (used.length > 0 ? used : sources.slice(0, 1)).map(({ n, title, url, externalId, sourceType }) => ({
    n,
    title,
    url,
    externalId,
    sourceType,
  }));
}

const markerGroup = /[ \t]*\[(\d+(?:[ \t]*,[ \t]*\d+)*)\]/g;

/** Rewrites `[1, 2]` as `[1][2]` and drops the numbers that name no source, a marker left empty with the spaces before it. */
function keepKnownMarkers(text: string, sourceNumbers: Set<number>): string {
  return text.replace(markerGroup, (group: string, list: string) => {
    const numbers = [...new Set(list.split(',').map((n) => Number(n.trim())))].filter((n) => sourceNumbers.has(n));
    if (numbers.length === 0) return '';
    const spaces = /^[ \t]*/.exec(group)?.[0] ?? '';
    return spaces + numbers.map((n) => `[${n}]`).join('');
  });
}

/** How much of the end of `text` must wait: whitespace, an unfinished marker, a start of the sentinel. */
function unsettledLength(text: string): number {
  let settled = text;
  for (;;) {
    const before = settled.length;
    settled = settled.trimEnd().replace(/\[[\d,\s]*$/, '');
    settled = settled.slice(0, settled.length - sentinelStartLength(settled));
    if (settled.length === before) return text.length - settled.length;
  }
}

/** The length of the longest end of `text` that the sentinel starts with. */
function sentinelStartLength(text: string): number {
  for (let length = Math.min(text.length, noAnswerSentinel.length - 1); length > 0; length--) {
    if (text.endsWith(noAnswerSentinel.slice(0, length))) return length;
  }
  return 0;
}
