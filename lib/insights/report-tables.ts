import { handoffReasons } from './day-counters.js';
import { satisfactionSummary } from './report-figures.js';
import type { Report, ReportGapCluster } from './reports.js';

/**
 * A report's tables, as the CSV exports list them: named columns, one row per line. Pure. Empty
 * values (an average of nothing, a title never kept) are empty cells.
 */

export type Cell = string | number | null;

export interface Table {
  columns: string[];
  rows: Cell[][];
}

type ReportWithGaps = Report & { contentGaps: ReportGapCluster[] };

const tables = {
  /** One row per day and channel (only the asked channel, when one is). */
  daily: (report) => ({
    columns: [
      'day',
      'channel',
      'conversations',
      'closed',
      'resolved',
      'handed_off',
      'abandoned',
      'answers_answered',
      'answers_unknown',
      'feedback_up',
      'feedback_down',
      'satisfaction_count',
      'satisfaction_average',
    ],
    rows: report.daily.map((d) => {
      const { count, average } = satisfactionSummary(d.satisfaction);
      return [
        d.day,
        d.channel,
        d.started,
        d.closed,
        d.resolved,
        d.handedOff,
        d.abandoned,
        d.answered,
        d.unknown,
        d.up,
        d.down,
        count,
        average,
      ];
    }),
  }),
  'handoff-reasons': (report) => ({
    columns: ['reason', 'handed_off'],
    rows: handoffReasons.map((by) => [by, report.handoffReasons[by]]),
  }),
  feedback: (report) => ({
    columns: ['rating', 'answers'],
    rows: [
      ['up', report.feedback.up],
      ['down', report.feedback.down],
    ],
  }),
  satisfaction: (report) => ({
    columns: ['score', 'conversations'],
    rows: report.satisfaction.distribution.map(({ score, count }) => [score, count]),
  }),
  'top-sources': (report) => ({
    columns: ['rank', 'source_key', 'title', 'citations'],
    rows: report.topSources.map((source, index) => [index + 1, source.key, source.title, source.citations]),
  }),
  'content-gaps': (report) => ({
    columns: ['rank', 'cluster_id', 'questions', 'representative', 'unknown', 'rated_down', 'last_asked_at'],
    rows: report.contentGaps.map((cluster, index) => [
      index + 1,
      cluster.id,
      cluster.count,
      cluster.representative,
      cluster.reasons.unknown,
      cluster.reasons.ratedDown,
      cluster.lastAskedAt,
    ]),
  }),
} satisfies Record<string, (report: ReportWithGaps) => Table>;

export type TableName = keyof typeof tables;
export const tableNames = Object.keys(tables) as TableName[];

export function isTableName(name: string): name is TableName {
  return Object.hasOwn(tables, name);
}

export function reportTable(name: TableName, report: ReportWithGaps): Table {
  return tables[name](report);
}
