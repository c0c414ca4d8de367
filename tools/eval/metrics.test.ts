import test from 'ava';
import { formatReport, mrrCutoff, rankOf, scoreBy, scoreRankings, type ScoredRow } from './metrics.js';

const ids = (count: number, prefix = 'x') => Array.from({ length: count }, (_, index) => `${prefix}${index + 1}`);

test('rankOf: 1-based position of the first relevant id', (t) => {
  t.is(rankOf(['a', 'b', 'c'], ['a']), 1);
  t.is(rankOf(['a', 'b', 'c'], ['c']), 3);
});

test('rankOf: null when no relevant id is ranked, or nothing is', (t) => {
  t.is(rankOf(['a', 'b'], ['z']), null);
  t.is(rankOf([], ['a']), null);
  t.is(rankOf(['a', 'b'], []), null);
  t.is(rankOf([], []), null);
});

test('rankOf: with several relevant ids, the best-ranked one counts', (t) => {
  t.is(rankOf(['a', 'b', 'c', 'd'], ['d', 'b']), 2);
  t.is(rankOf(['a', 'b', 'c', 'd'], ['d', 'z']), 4);
});

test('rankOf: repeated ids (several chunks of one item) count once', (t) => {
  t.is(rankOf(['a', 'a', 'b', 'a', 'c'], ['c']), 3);
  t.is(rankOf(['a', 'a', 'a'], ['a']), 1);
});

test('rankOf: ranks beyond the MRR cut are still reported', (t) => {
  t.is(rankOf([...ids(10), 'hit'], ['hit']), 11);
});

test('scoreRankings: hit@1, hit@3 and MRR over answerable questions only', (t) => {
  const rows: ScoredRow[] = [
    { answeredBy: ['a'], ranking: ['a', 'b'], saidUnknown: false }, // rank 1
    { answeredBy: ['b'], ranking: ['a', 'c', 'b'], saidUnknown: false }, // rank 3
    { answeredBy: ['z'], ranking: ['a', 'b'], saidUnknown: false }, // missed
    { answeredBy: ['b'], ranking: ['a', 'b'], saidUnknown: true }, // rank 2
    { answeredBy: [], ranking: ['a'], saidUnknown: true }, // unanswerable: ranking ignored
  ];
  const scores = scoreRankings(rows);
  t.is(scores.answerable, 4);
  t.is(scores.unanswerable, 1);
  t.is(scores.hitAt1, 1 / 4);
  t.is(scores.hitAt3, 3 / 4);
  t.is(scores.mrr, (1 + 1 / 3 + 0 + 1 / 2) / 4);
  t.is(scores.unknownCorrect, 1);
  t.is(scores.unknownWrong, 1 / 4);
});

test('scoreRankings: a relevant id at rank 11 is a miss for every metric', (t) => {
  const scores = scoreRankings([{ answeredBy: ['hit'], ranking: [...ids(mrrCutoff), 'hit'], saidUnknown: false }]);
  t.is(scores.hitAt1, 0);
  t.is(scores.hitAt3, 0);
  t.is(scores.mrr, 0);
});

test('scoreRankings: a relevant id at rank 10 still counts in the MRR', (t) => {
  const scores = scoreRankings([{ answeredBy: ['hit'], ranking: [...ids(mrrCutoff - 1), 'hit'], saidUnknown: false }]);
  t.is(scores.mrr, 1 / 10);
  t.is(scores.hitAt3, 0);
});

test('scoreRankings: multiple relevant ids use the best rank', (t) => {
  const scores = scoreRankings([{ answeredBy: ['c', 'b'], ranking: ['a', 'b', 'c'], saidUnknown: false }]);
  t.is(scores.mrr, 1 / 2);
  t.is(scores.hitAt1, 0);
  t.is(scores.hitAt3, 1);
});

test('scoreRankings: unknown shares', (t) => {
  const scores = scoreRankings([
    { answeredBy: [], ranking: [], saidUnknown: true },
    { answeredBy: [], ranking: ['a'], saidUnknown: false },
    { answeredBy: [], ranking: [], saidUnknown: true },
    { answeredBy: ['a'], ranking: ['a'], saidUnknown: false },
  ]);
  t.is(scores.unknownCorrect, 2 / 3);
  t.is(scores.unknownWrong, 0);
});

test('scoreRankings: empty sets give NaN shares, not zeros', (t) => {
  const none = scoreRankings([]);
  t.is(none.answerable, 0);
  t.is(none.unanswerable, 0);
  for (const value of [none.hitAt1, none.hitAt3, none.mrr, none.unknownCorrect, none.unknownWrong]) t.true(Number.isNaN(value));

  const onlyUnanswerable = scoreRankings([{ answeredBy: [], ranking: [], saidUnknown: false }]);
  t.true(Number.isNaN(onlyUnanswerable.mrr));
  t.true(Number.isNaN(onlyUnanswerable.unknownWrong));
  t.is(onlyUnanswerable.unknownCorrect, 0);

  const onlyAnswerable = scoreRankings([{ answeredBy: ['a'], ranking: [], saidUnknown: true }]);
  t.is(onlyAnswerable.mrr, 0);
  t.is(onlyAnswerable.unknownWrong, 1);
  t.true(Number.isNaN(onlyAnswerable.unknownCorrect));
});

test('formatReport: one row per metric, one column per system, 3 decimals', (t) => {
  const hybrid = scoreRankings([
    { answeredBy: ['a'], ranking: ['a'], saidUnknown: false },
    { answeredBy: ['b'], ranking: ['a', 'b'], saidUnknown: false },
    { answeredBy: [], ranking: [], saidUnknown: true },
  ]);
  const bm25 = scoreRankings([
    { answeredBy: ['a'], ranking: ['b', 'c', 'a'], saidUnknown: false },
    { answeredBy: ['b'], ranking: [], saidUnknown: true },
    { answeredBy: [], ranking: ['a'], saidUnknown: false },
  ]);
  const report = formatReport({ 'hybrid (our stack)': hybrid, 'plain BM25': bm25 });
  const lines = report.split('\n');
  t.is(lines.length, 2 + 8);
  t.regex(lines[0]!, /^metric\s+\| hybrid \(our stack\) \| plain BM25$/);
  t.regex(lines[1]!, /^-+-\+-+-\+-+$/);
  t.regex(report, /^answerable questions\s+\|\s+2 \|\s+2$/m);
  t.regex(report, /^hit@1\s+\|\s+0\.500 \|\s+0\.000$/m);
  t.regex(report, /^hit@3\s+\|\s+1\.000 \|\s+0\.500$/m);
  t.regex(report, /^MRR@10\s+\|\s+0\.750 \|\s+0\.167$/m);
  t.regex(report, /^says unknown when unanswerable \(higher is better\)\s+\|\s+1\.000 \|\s+0\.000$/m);
  t.regex(report, /^says unknown when answerable \(lower is better\)\s+\|\s+0\.000 \|\s+0\.500$/m);
  // Columns line up: every line has its separators at the same offsets.
  const bars = (line: string) => [...line.matchAll(/[|+]/g)].map((match) => match.index);
  for (const line of lines) t.deepEqual(bars(line), bars(lines[0]!));
});

test('formatReport: undefined shares print as n/a; no systems leaves the metric column', (t) => {
  const report = formatReport({ empty: scoreRankings([]) });
  t.regex(report, /^hit@1\s+\|\s+n\/a$/m);
  t.regex(report, /^answerable questions\s+\|\s+0$/m);
  const bare = formatReport({}).split('\n');
  t.is(bare[0], 'metric');
  t.is(bare.length, 10);
});

test('scoreRankings: first citation right over answerable questions; abstaining counts as not right', (t) => {
  const scores = scoreRankings([
    { answeredBy: ['a'], ranking: [], saidUnknown: false, firstCitation: 'a' }, // right
    { answeredBy: ['a', 'b'], ranking: [], saidUnknown: false, firstCitation: 'b' }, // either source is right
    { answeredBy: ['a'], ranking: ['a'], saidUnknown: false, firstCitation: 'c' }, // wrong source, whatever the ranking
    { answeredBy: ['a'], ranking: ['a'], saidUnknown: true }, // abstained
    { answeredBy: [], ranking: [], saidUnknown: false, firstCitation: 'a' }, // unanswerable: not counted
  ]);
  t.is(scores.answerable, 4);
  t.is(scores.firstCitationRight, 2 / 4);
});

test('scoreRankings: first citation share is NaN without answerable questions, 0 when nothing is cited', (t) => {
  t.true(Number.isNaN(scoreRankings([]).firstCitationRight));
  t.true(
    Number.isNaN(scoreRankings([{ answeredBy: [], ranking: [], saidUnknown: false, firstCitation: 'a' }]).firstCitationRight),
  );
  t.is(scoreRankings([{ answeredBy: ['a'], ranking: ['a'], saidUnknown: false }]).firstCitationRight, 0);
});

test('formatReport: prints the first-citation share as its own row', (t) => {
  const scores = scoreRankings([
    { answeredBy: ['a'], ranking: ['a'], saidUnknown: false, firstCitation: 'a' },
    { answeredBy: ['b'], ranking: ['b'], saidUnknown: true },
    { answeredBy: [], ranking: [], saidUnknown: true },
  ]);
  const report = formatReport({ stack: scores, empty: scoreRankings([]) });
  t.regex(report, /^first citation is a right source \(over answerable\)\s+\|\s+0\.500 \|\s+n\/a$/m);
});

test('scoreBy: one Scores per key, each equal to scoring that group alone', (t) => {
  const rows: Array<ScoredRow & { split: string }> = [
    { split: 'tuning', answeredBy: ['a'], ranking: ['a'], saidUnknown: false },
    { split: 'held-out', answeredBy: ['b'], ranking: ['a', 'b'], saidUnknown: false },
    { split: 'tuning', answeredBy: [], ranking: [], saidUnknown: true },
    { split: 'held-out', answeredBy: [], ranking: ['a'], saidUnknown: false },
  ];
  const bySplit = scoreBy(rows, (row) => row.split);
  t.deepEqual(Object.keys(bySplit), ['tuning', 'held-out']);
  t.deepEqual(bySplit['tuning'], scoreRankings([rows[0]!, rows[2]!]));
  t.deepEqual(bySplit['held-out'], scoreRankings([rows[1]!, rows[3]!]));
  t.is(bySplit['tuning']!.hitAt1, 1);
  t.is(bySplit['held-out']!.hitAt1, 0);
  t.is(bySplit['held-out']!.unknownCorrect, 0);
});

test('scoreBy: keys in the given order come first and are present even when empty', (t) => {
  const rows: ScoredRow[] = [
    { answeredBy: [], ranking: [], saidUnknown: true },
    { answeredBy: ['a'], ranking: ['a'], saidUnknown: false },
  ];
  const kinds = ['plain', 'misspelled', 'off-topic'];
  // Keyed through a parallel array by index, as run.ts keys rows by their question.
  const byKind = scoreBy(rows, (_, index) => ['off-topic', 'surprise'][index]!, kinds);
  t.deepEqual(Object.keys(byKind), ['plain', 'misspelled', 'off-topic', 'surprise']);
  t.is(byKind['plain']!.answerable, 0);
  t.true(Number.isNaN(byKind['plain']!.hitAt1));
  t.true(Number.isNaN(byKind['misspelled']!.unknownCorrect));
  t.is(byKind['off-topic']!.unknownCorrect, 1);
  t.is(byKind['surprise']!.hitAt1, 1);
  t.deepEqual(
    scoreBy([], () => 'any'),
    {},
  );
});

test('scoreBy: its result prints as one column per group', (t) => {
  const rows: ScoredRow[] = [
    { answeredBy: ['a'], ranking: ['a'], saidUnknown: false },
    { answeredBy: ['a'], ranking: ['b'], saidUnknown: false },
  ];
  const report = formatReport(scoreBy(rows, (_, index) => (index === 0 ? 'tuning' : 'held-out'), ['tuning', 'held-out']));
  t.regex(report.split('\n')[0]!, /^metric\s+\| tuning \| held-out$/);
  t.regex(report, /^hit@1\s+\|\s+1\.000 \|\s+0\.000$/m);
});
