import { ENDS_SENTENCE, type Piece } from './pieces.js';
import type { RetrievedSource, TokenSink } from '../types.js';

/*
 * The extractive answer as text: picked pieces grouped by source, each group ending with its source's
 * `[n]` marker, cut sentences shown with "…", and the text streamed word by word.
 */

/** A picked piece and its score, which orders the groups. */
export interface Pick {
  piece: Piece;
  score: number;
}

/** The picked pieces of one source. */
export interface Group {
  rank: number;
  pieces: Piece[];
}

/** One group per source, pieces in document order, the group with the best pick first. */
export function groupBySource(picked: Pick[]): Group[] {
  const groups = new Map<number, Group & { score: number }>();
  for (const { piece, score } of picked) {
    const group = groups.get(piece.rank) ?? { rank: piece.rank, pieces: [], score: -Infinity };
    group.pieces.push(piece);
    group.score = Math.max(group.score, score);
    groups.set(piece.rank, group);
  }
  return [...groups.values()]
    .sort((a, b) => b.score - a.score || a.rank - b.rank)
    .map(({ rank, pieces }) => ({ rank, pieces: pieces.sort((a, b) => a.index - b.index) }));
}

/** Groups separated by blank lines, each ending with its source's marker. */
export function render(groups: Group[], sources: RetrievedSource[]): string {
  return groups.map((group) => `${renderPieces(group.pieces)} [${sources[group.rank]!.n}]`).join('\n\n');
}

// Footnote markers in the source ("as reported[3]") would read as citations of this answer.
const FOOTNOTE = /\s?\[\d{1,3}\]/g;
const TRAILING_CLAUSE_PUNCTUATION = /[\s,;:–—-]+$/;

/** The pieces of one group as text: runs of one sentence rejoined, lines kept apart where needed. */
function renderPieces(pieces: Piece[]): string {
  let text = '';
  for (let i = 0; i < pieces.length; i++) {
    const first = pieces[i]!;
    let last = first;
    while (pieces[i + 1]?.sentence === last.sentence && pieces[i + 1]?.index === last.index + 1) last = pieces[++i]!;
    let run = first.passage.slice(first.start, last.end).replace(FOOTNOTE, '');
    if (first.cutBefore) run = `…${run}`;
    if (last.cutAfter) run = `${run.replace(TRAILING_CLAUSE_PUNCTUATION, '')}…`;
    const next = pieces[i + 1];
    if (next && last.label && !ENDS_SENTENCE.test(run)) run += ':';
    text += run;
    if (next) text += next.listItem || (!last.terminated && !last.label) ? '\n' : ' ';
  }
  return text;
}

/** Sends the text word by word, each word with the whitespace after it. */
export function streamWords(text: string, sink: TokenSink): void {
  for (const word of text.match(/\S+\s*|\s+/g) ?? []) sink.token(word);
}
