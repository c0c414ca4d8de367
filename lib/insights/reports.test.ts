import test from 'ava';
import { csvOf } from '#api/csv.js';
import { useTestRedis } from '#testing/redis.js';
import { counterFields, createDayCounters, type CounterOwner } from './day-counters.js';
import { reportTable } from './report-tables.js';
import { buildReport, createReports, type ReportGapCluster, type ReportRange } from './reports.js';

const store = useTestRedis(test);
const owner = { tenantId: 'tenant-a', operatorId: 'op-a' };

test('the median first reply, from histograms merged over days and channels, is within 5% of the true median', (t) => {
  for (const seconds of [[1], [0.2, 3], [7, 8, 9], [59, 61, 62, 3_600], [12, 400, 401, 402, 86_400], [95_000]]) {
    const counts = (ch: 'widget' | 'messaging', values: number[]) => {
      const fields: Record<string, number> = {};
      for (const s of values) fields[counterFields.firstReply(ch, s)] = (fields[counterFields.firstReply(ch, s)] ?? 0) + 1;
      return fields;
    };
    const half = Math.ceil(seconds.length / 2);
    const report = buildReport({
      days: [
        { day: '2026-03-01', counts: counts('widget', seconds.slice(0, half)) },
        { day: '2026-03-02', counts: counts('messaging', seconds.slice(half)) },
      ],
      topSources: [],
    });
    const sorted = [...seconds].sort((a, b) => a - b);
    const median = Math.max(1, sorted[Math.ceil(sorted.length / 2) - 1]!);
    t.is(report.firstAgentReply.count, seconds.length);
    t.true(
      Math.abs(report.firstAgentReply.medianSeconds! - median) <= median * 0.05,
      `${seconds}: ${report.firstAgentReply.medianSeconds}`,
    );
  }
});

test('the reports ask the content gaps for the range, the channel and the limit, and export their questions guarded', async (t) => {
  const counters = createDayCounters(store.redis(), store.prefix);
  await counters.add(owner, '2026-03-01', [counterFields.started('widget')]);
  const asked: Array<[CounterOwner, ReportRange & { channel?: 'widget' | 'messaging' }, number]> = [];
  const cluster: ReportGapCluster = {
    id: 'c1',
    count: 4,
    representative: '=1+1, or "how do I return\nsomething"?',
    reasons: { unknown: 3, ratedDown: 1 },
    lastAskedAt: '2026-03-01T10:00:00.000Z',
  };
  const reports = createReports({
    counters,
    contentGaps: {
      // More clusters than asked, with fields a report does not show.
      async topClusters(...args) {
        asked.push(args);
        return Array.from({ length: args[2] + 1 }, (_, index) => ({
          ...cluster,
          id: `c${index + 1}`,
          examples: ['how do I return something?'],
        }));
      },
    },
  });
  const range = { from: '2026-03-01', to: '2026-03-02' };

  const report = await reports.report(owner, range);
  t.is(report.conversations.total, 1);
  t.is(report.contentGaps.length, 10);
  t.deepEqual(report.contentGaps[0], cluster);
  await reports.report(owner, range, { rows: 100 });
  await reports.report(owner, range, { channel: 'messaging' });
  t.deepEqual(asked, [
    [owner, range, 10],
    [owner, range, 100],
    [owner, { ...range, channel: 'messaging' }, 10],
  ]);
  t.is(
    csvOf(reportTable('content-gaps', { ...report, contentGaps: report.contentGaps.slice(0, 1) })),
    'rank,cluster_id,questions,representative,unknown,rated_down,last_asked_at\r\n' +
      '1,c1,4,"\'=1+1, or ""how do I return\nsomething""?",3,1,2026-03-01T10:00:00.000Z\r\n',
  );
  // Without the content gaps wired, a report lists no clusters.
  t.deepEqual((await createReports({ counters }).report(owner, range)).contentGaps, []);
});
