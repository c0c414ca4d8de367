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

test('a range reads every day, empty days too, with the citations and the latest titles', async (t) => {
  const counters = createDayCounters(store.redis(), store.prefix);
  await counters.add(owner, '2026-03-01', [counterFields.started('widget'), counterFields.started('widget')]);
  await counters.add(owner, '2026-03-03', { [counterFields.feedback('messaging', 'down')]: 2 });
  await counters.addCitations(owner, '2026-03-03', [
    { key: 'kb1/a', title: 'Old title' },
    { key: 'kb1/b', title: 'B' },
  ]);
  await counters.addCitations(owner, '2026-03-03', [{ key: 'kb1/a', title: 'New title' }]);
  const other = { tenantId: 'tenant-b', operatorId: 'op_a' };
  await counters.add(other, '2026-03-01', [counterFields.started('widget')]);

  const read = await counters.read(owner, daysBetween('2026-03-01', '2026-03-03'));
  t.deepEqual(read.days, [
    { day: '2026-03-01', counts: { 'started:widget': 2 }, citations: {} },
    { day: '2026-03-02', counts: {}, citations: {} },
    { day: '2026-03-03', counts: { 'feedback:messaging:down': 2 }, citations: { 'kb1/a': 2, 'kb1/b': 1 } },
  ]);
  t.deepEqual(read.titles, { 'kb1/a': 'New title', 'kb1/b': 'B' });
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
