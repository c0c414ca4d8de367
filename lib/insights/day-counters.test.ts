import test from 'ava';
import { useTestRedis } from '#testing/redis.js';
import {
  bucketSeconds,
  counterFields,
  createDayCounters,
  dayExpiry,
  daysBetween,
  firstReplyBucket,
  insightKeys,
} from './day-counters.js';

const store = useTestRedis(test);
const owner = { tenantId: 'tenant-a', operatorId: 'op_a' };

test('a range reads every day, empty days too, and the most cited sources summed over it with their latest titles', async (t) => {
  const counters = createDayCounters(store.redis(), store.prefix);
  await counters.add(owner, '2026-03-01', [counterFields.started('widget'), counterFields.started('widget')]);
  await counters.add(owner, '2026-03-03', { [counterFields.feedback('messaging', 'down')]: 2 });
  await counters.addCitations(owner, '2026-03-01', [{ key: 'kb1/c', title: 'C' }]);
  await counters.addCitations(owner, '2026-03-03', [
    { key: 'kb1/a', title: 'Old title' },
    { key: 'kb1/b', title: 'B' },
  ]);
  await counters.addCitations(owner, '2026-03-03', [{ key: 'kb1/a', title: 'New title' }]);
  const other = { tenantId: 'tenant-b', operatorId: 'op_a' };
  await counters.add(other, '2026-03-01', [counterFields.started('widget')]);
  await counters.addCitations(other, '2026-03-01', [{ key: 'kb1/b', title: 'Not ours' }]);

  const read = await counters.read(owner, daysBetween('2026-03-01', '2026-03-03'), { topSources: 10 });
  t.deepEqual(read.days, [
    { day: '2026-03-01', counts: { 'started:widget': 2 } },
    { day: '2026-03-02', counts: {} },
    { day: '2026-03-03', counts: { 'feedback:messaging:down': 2 } },
  ]);
  t.deepEqual(read.topSources, [
    { key: 'kb1/a', title: 'New title', citations: 2 },
    { key: 'kb1/b', title: 'B', citations: 1 },
    { key: 'kb1/c', title: 'C', citations: 1 },
  ]);
  t.deepEqual(
    (await counters.read(owner, ['2026-03-02', '2026-03-03'], { topSources: 10 })).topSources.map((s) => s.key),
    ['kb1/a', 'kb1/b'],
  );
  t.deepEqual((await counters.read(owner, ['2026-03-01'])).topSources, [], 'none unless asked');
});

test('the top sources are exact totals over the days, ties by key, cut at the limit, with their titles', async (t) => {
  const counters = createDayCounters(store.redis(), store.prefix);
  const cite = (day: string, key: string, times: number) =>
    counters.addCitations(
      owner,
      day,
      Array.from({ length: times }, () => ({ key, title: `Title of ${key}` })),
    );
  // Over the two days: d 5, b 4, e 4 (ties by key: b before e), a 3, c 3, z 1; each spread over both days.
  for (const [key, first, second] of [
    ['kb/d', 2, 3],
    ['kb/e', 4, 0],
    ['kb/b', 1, 3],
    ['kb/c', 3, 0],
    ['kb/a', 0, 3],
    ['kb/z', 1, 0],
  ] as const) {
    for (let n = 0; n < first; n++) await cite('2026-04-01', key, 1);
    for (let n = 0; n < second; n++) await cite('2026-04-02', key, 1);
  }
  await store.redis().hDel(insightKeys(store.prefix).sourceTitles(owner), 'kb/c');

  const read = await counters.read(owner, ['2026-04-01', '2026-04-02'], { topSources: 4 });
  t.deepEqual(read.topSources, [
    { key: 'kb/d', title: 'Title of kb/d', citations: 5 },
    { key: 'kb/b', title: 'Title of kb/b', citations: 4 },
    { key: 'kb/e', title: 'Title of kb/e', citations: 4 },
    { key: 'kb/a', title: 'Title of kb/a', citations: 3 },
  ]);
  t.deepEqual(
    (await counters.read(owner, ['2026-04-01', '2026-04-02'], { topSources: 5 })).topSources.at(-1),
    { key: 'kb/c', title: null, citations: 3 },
    'a source without a kept title',
  );
  const keys = await store.redis().keys(`${store.prefix}:insights:*scratch*`);
  t.deepEqual(keys, [], 'no scratch key is left behind');
  t.is(await store.redis().type(insightKeys(store.prefix).daySources(owner, '2026-04-01')), 'zset');
  t.is(await store.redis().expireTime(insightKeys(store.prefix).daySources(owner, '2026-04-01')), dayExpiry('2026-04-01'));
});

test("a day's keys expire 401 days after it begins", async (t) => {
  const counters = createDayCounters(store.redis(), store.prefix);
  await counters.add(owner, '2026-05-10', [counterFields.closed('widget')]);
  const expiresAt = await store.redis().expireTime(insightKeys(store.prefix).day(owner, '2026-05-10'));
  t.is(expiresAt, dayExpiry('2026-05-10'));
  t.is(expiresAt, Date.parse('2027-06-15T00:00:00Z') / 1000);
});

test('first-reply buckets are 10% wide and their middle is within 5% of any time in them', (t) => {
  for (const seconds of [1, 1.5, 7, 59, 60, 61, 3_600, 86_400 * 3]) {
    const middle = bucketSeconds(firstReplyBucket(seconds));
    t.true(Math.abs(middle - seconds) / seconds <= 0.05 || seconds <= 1, `${seconds} s → ${middle}`);
  }
  t.is(firstReplyBucket(0), 0);
  t.true(firstReplyBucket(60) < firstReplyBucket(67));
});

test('days between two dates include both ends and cross month ends', (t) => {
  t.deepEqual(daysBetween('2026-02-27', '2026-03-02'), ['2026-02-27', '2026-02-28', '2026-03-01', '2026-03-02']);
  t.deepEqual(daysBetween('2026-03-02', '2026-03-01'), []);
});
