/**
 * Scoring for the evaluation set: pure functions over rankings of externalIds (best first).
 *
 * Ranking metrics (hit@1, hit@3, MRR) are computed over answerable questions only. The two
 * "unknown" shares measure whether the assistant declines when it should (unanswerable questions)
 * and declines when it should not (answerable ones). The first-citation share judges the answer
 * rather than the search: over answerable questions, how often the source cited first is a right one.
 * A share over an empty set is NaN, not 0: "no questions of that kind" is not the same as "all of them
 * failed"; `formatReport` prints it as n/a. `scoreBy` splits rows into groups (per split, per kind).
 */

/** Ranks beyond this count as a miss in the MRR. */
export const mrrCutoff = 10;

export interface ScoredRow {
  /** ExternalIds that answer the question; empty when nothing does. */
  answeredBy: string[];
  /** ExternalIds as the system ranked them, best first. */
  ranking: string[];
  /** Whether the system said it could not answer. */
  saidUnknown: boolean;
  /**
   * ExternalId of the answer's first citation; undefined when it abstained or cited nothing. A system
   * that does not write answers (plain BM25) may pass its top-ranked id, or its figure reads 0.
   */
  firstCitation?: string;
}

export interface Scores {
  answerable: number;
  unanswerable: number;
  hitAt1: number;
  hitAt3: number;
  mrr: number;
  /** Share of unanswerable questions where the system said it did not know (higher is better). */
  unknownCorrect: number;
  /** Share of answerable questions where the system said it did not know (lower is better). */
  unknownWrong: number;
  /**
   * Share of answerable questions whose answer cites a right source first. Abstaining counts as not
   * right, so a system cannot raise this figure by declining the questions it finds hard.
   */
  firstCitationRight: number;
}

/**
 * 1-based rank of the first relevant id, or null when none is ranked. Repeated ids (several chunks
 * of one item) count once, at their first position, so the rank counts distinct items.
 */
export function rankOf(ranking: string[], answeredBy: string[]): number | null {
  const relevant = new Set(answeredBy);
  const seen = new Set<string>();
  for (const id of ranking) {
    if (seen.has(id)) continue;
    seen.add(id);
    if (relevant.has(id)) return seen.size;
  }
  return null;
}

const share = (count: number, of: number) => (of === 0 ? Number.NaN : count / of);

export function scoreRankings(rows: readonly ScoredRow[]): Scores {
  const answerable = rows.filter((row) => row.answeredBy.length > 0);
  const unanswerable = rows.filter((row) => row.answeredBy.length === 0);
  const ranks = answerable.map((row) => rankOf(row.ranking, row.answeredBy));
  const within = (cut: number) => ranks.filter((rank) => rank !== null && rank <= cut).length;
  const reciprocal = ranks.reduce<number>((sum, rank) => sum + (rank !== null && rank <= mrrCutoff ? 1 / rank : 0), 0);
  return {
    answerable: answerable.length,
    unanswerable: unanswerable.length,
    hitAt1: share(within(1), answerable.length),
    hitAt3: share(within(3), answerable.length),
    mrr: share(reciprocal, answerable.length),
    unknownCorrect: share(unanswerable.filter((row) => row.saidUnknown).length, unanswerable.length),
    unknownWrong: share(answerable.filter((row) => row.saidUnknown).length, answerable.length),
    firstCitationRight: share(answerable.filter(citesRightSourceFirst).length, answerable.length),
  };
}

function citesRightSourceFirst(row: ScoredRow): boolean {
  return row.firstCitation !== undefined && row.answeredBy.includes(row.firstCitation);
}

/**
 * Scores per group (per split, per kind, …), keyed like `formatReport`'s columns. Keys in `order`
 * come first and are always present, even without rows (their shares are then NaN, printed n/a), so
 * that reports of different runs line up; any other key follows in order of first appearance. The
 * index lets a caller key rows by a parallel array (`(_, index) => questions[index]!.kind`).
 */
export function scoreBy<Row extends ScoredRow>(
  rows: readonly Row[],
  keyOf: (row: Row, index: number) => string,
  order: readonly string[] = [],
): Record<string, Scores> {
  const groups = new Map<string, Row[]>(order.map((key) => [key, []]));
  rows.forEach((row, index) => {
    const key = keyOf(row, index);
    const group = groups.get(key);
    if (group) group.push(row);
    else groups.set(key, [row]);
  });
  return Object.fromEntries([...groups].map(([key, group]) => [key, scoreRankings(group)]));
}

const reportRows: Array<{ label: string; value: (scores: Scores) => string }> = [
  { label: 'answerable questions', value: (s) => String(s.answerable) },
  { label: 'unanswerable questions', value: (s) => String(s.unanswerable) },
  { label: 'hit@1', value: (s) => figure(s.hitAt1) },
  { label: 'hit@3', value: (s) => figure(s.hitAt3) },
  { label: `MRR@${mrrCutoff}`, value: (s) => figure(s.mrr) },
  { label: 'says unknown when unanswerable (higher is better)', value: (s) => figure(s.unknownCorrect) },
  { label: 'says unknown when answerable (lower is better)', value: (s) => figure(s.unknownWrong) },
  { label: 'first citation is a right source (over answerable)', value: (s) => figure(s.firstCitationRight) },
];

function figure(value: number): string {
  return Number.isFinite(value) ? value.toFixed(3) : 'n/a';
}

/**
 * A plain-text table: one row per metric, one column per system (in the order given), figures
 * right-aligned with 3 decimals, counts as integers.
 */
export function formatReport(columns: Record<string, Scores>): string {
  const names = Object.keys(columns);
  const cells = reportRows.map((row) => [row.label, ...names.map((name) => row.value(columns[name]!))]);
  const header = ['metric', ...names];
  const widths = header.map((title, index) => Math.max(title.length, ...cells.map((line) => line[index]!.length)));
  const render = (line: string[]) =>
    line
      .map((cell, index) => (index === 0 ? cell.padEnd(widths[index]!) : cell.padStart(widths[index]!)))
      .join(' | ')
      .trimEnd();
  const rule = widths.map((width) => '-'.repeat(width)).join('-+-');
  return [render(header), rule, ...cells.map(render)].join('\n');
}
