/**
 * Scoring for the evaluation set: pure functions over rankings of externalIds (best first).
 *
 * Ranking metrics (hit@1, hit@3, MRR) are computed over answerable questions only. The two
 * "unknown" shares measure whether the assistant declines when it should (unanswerable questions)
 * and declines when it should not (answerable ones). A share over an empty set is NaN, not 0:
 * "no questions of that kind" is not the same as "all of them failed"; `formatReport` prints it as n/a.
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

export function scoreRankings(rows: ScoredRow[]): Scores {
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
  };
}

const reportRows: Array<{ label: string; value: (scores: Scores) => string }> = [
  { label: 'answerable questions', value: (s) => String(s.answerable) },
  { label: 'unanswerable questions', value: (s) => String(s.unanswerable) },
  { label: 'hit@1', value: (s) => figure(s.hitAt1) },
  { label: 'hit@3', value: (s) => figure(s.hitAt3) },
  { label: `MRR@${mrrCutoff}`, value: (s) => figure(s.mrr) },
  { label: 'says unknown when unanswerable (higher is better)', value: (s) => figure(s.unknownCorrect) },
  { label: 'says unknown when answerable (lower is better)', value: (s) => figure(s.unknownWrong) },
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
