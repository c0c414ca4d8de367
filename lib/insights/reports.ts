import type { DayRange } from './day-range.js';
import { channels, type Channel } from '#workflows/conversations/types.js';
import {
  bucketSeconds,
  daysBetween,
  handoffReasons,
  type CounterOwner,
  type CountersRead,
  type DayCounters,
  type HandoffReason,
} from './day-counters.js';
import { dayFiguresOf, satisfactionScores, satisfactionSummary, share, sum, type DayFigures } from './report-figures.js';

/**
 * An operator's report over a range of UTC days (docs/insights.md, "Reports"), from the day
 * counters: the figures are computed here from the counts alone, so a 90-day report costs one
 * pipelined read whatever the number of conversations.
 */

export const reportLimits = {
  topSources: 10,
  contentGaps: 10,
  /** The exports list more of the ranked tables than the report shows. */
  exportedRows: 100,
};

export type ReportRange = DayRange;

/** A content-gap cluster as a report shows it (the clusters' own module gives more). */
export interface ReportGapCluster {
  id: string;
  count: number;
  representative: string;
  reasons: { unknown: number; ratedDown: number };
  lastAskedAt: string;
}

/** The content-gap clusters, ranked by count in a range, on a channel or (without one) every channel (`lib/insights/content-gaps/`). */
export interface ContentGapClusters {
  topClusters(owner: CounterOwner, filter: ReportRange & { channel?: Channel }, limit: number): Promise<ReportGapCluster[]>;
}

/**
 * The range a query asks for, or what is wrong with it: `to` defaults to today (UTC), `from` to 29
 * days before `to` (the last 30 days); `from` ≤ `to`, at most 366 days.
 */
/**
 * The report of the counters read over a range (`DayCounters.read`), of one channel or both; the
 * top sources are those read (ranked and counted in Redis, all channels).
 */
export function buildReport(read: CountersRead, { channel }: { channel?: Channel } = {}) {
  const shown = channel ? [channel] : channels;
  const daily = read.days.flatMap(({ day, counts }) => shown.map((each) => dayFiguresOf(day, each, counts)));
  const total = (figure: (day: DayFigures) => number) => sum(daily.map(figure));

  const closed = total((d) => d.closed);
  const resolved = total((d) => d.resolved);
  const handedOff = total((d) => d.handedOff);
  const up = total((d) => d.up);
  const distribution = satisfactionScores.map((_, index) => total((d) => d.satisfaction[index]!));
  return {
    daily,
    conversations: {
      total: total((d) => d.started),
      byChannel: Object.fromEntries(channels.map((each) => [each, total((d) => (d.channel === each ? d.started : 0))])) as Record<
        Channel,
        number
      >,
      byDay: read.days.map(({ day }) => {
        const ofDay = daily.filter((d) => d.day === day);
        const ofDayTotal = (figure: (d: DayFigures) => number) => sum(ofDay.map(figure));
        const started = (each: Channel) => ofDayTotal((d) => (d.channel === each ? d.started : 0));
        return {
          day,
          total: ofDayTotal((d) => d.started),
          widget: started('widget'),
          messaging: started('messaging'),
          closed: ofDayTotal((d) => d.closed),
          resolved: ofDayTotal((d) => d.resolved),
          handedOff: ofDayTotal((d) => d.handedOff),
          abandoned: ofDayTotal((d) => d.abandoned),
        };
      }),
    },
    outcomes: {
      closed,
      resolved,
      handedOff,
      abandoned: total((d) => d.abandoned),
      resolutionRate: share(resolved, closed),
      handoffRate: share(handedOff, closed),
    },
    handoffReasons: Object.fromEntries(handoffReasons.map((by) => [by, total((d) => d.handoff[by])])) as Record<
      HandoffReason,
      number
    >,
    answers: { answered: total((d) => d.answered), unknown: total((d) => d.unknown) },
    firstAgentReply: firstReplySummary(daily),
    feedback: { up, down: total((d) => d.down), shareUp: share(up, up + total((d) => d.down)) },
    satisfaction: {
      ...satisfactionSummary(distribution),
      distribution: satisfactionScores.map((score, index) => ({ score, count: distribution[index]! })),
    },
    topSources: read.topSources,
  };
}

export type Report = ReturnType<typeof buildReport>;

/**
 * The median time to the first agent reply, from the histograms merged over the days: the middle
 * reply's bucket, as its geometric middle (within 5% of the true time). Null without replies.
 */
function firstReplySummary(daily: DayFigures[]): { count: number; medianSeconds: number | null } {
  const merged = new Map<number, number>();
  for (const { firstReply } of daily)
    for (const [bucket, count] of firstReply) merged.set(bucket, (merged.get(bucket) ?? 0) + count);
  const count = sum([...merged.values()]);
  if (count === 0) return { count, medianSeconds: null };
  const middle = Math.ceil(count / 2);
  let seen = 0;
  for (const bucket of [...merged.keys()].sort((a, b) => a - b)) {
    seen += merged.get(bucket)!;
    if (seen >= middle) return { count, medianSeconds: Math.round(bucketSeconds(bucket) * 100) / 100 };
  }
  return { count, medianSeconds: null };
}

export interface ReportsDeps {
  counters: Pick<DayCounters, 'read'>;
  /** Absent until the content-gaps clustering is wired: the reports then list no clusters. */
  contentGaps?: ContentGapClusters;
}

/** Reports of an operator's counters, with its top content-gap clusters (of the report's channel, when it has one). */
export function createReports({ counters, contentGaps }: ReportsDeps) {
  return {
    async report(
      owner: CounterOwner,
      range: ReportRange,
      { channel, rows }: { channel?: Channel; rows?: number } = {},
    ): Promise<Report & { contentGaps: ReportGapCluster[] }> {
      const gapLimit = rows ?? reportLimits.contentGaps;
      const [read, gaps] = await Promise.all([
        counters.read(owner, daysBetween(range.from, range.to), { topSources: rows ?? reportLimits.topSources }),
        contentGaps?.topClusters(owner, channel ? { ...range, channel } : range, gapLimit) ?? [],
      ]);
      return {
        ...buildReport(read, channel ? { channel } : {}),
        // Only the fields a report shows, never more clusters than asked.
        contentGaps: gaps.slice(0, gapLimit).map(({ id, count, representative, reasons, lastAskedAt }) => ({
          id,
          count,
          representative,
          reasons: { unknown: reasons.unknown, ratedDown: reasons.ratedDown },
          lastAskedAt,
        })),
      };
    },
  };
}

export type Reports = ReturnType<typeof createReports>;
