import test from 'ava';
import { dayRangeOf } from './day-range.js';

const now = new Date('2026-11-27T09:00:00Z');

test('a range defaults to the last 30 days ending today (UTC), and is refused backwards or longer than 366 days', (t) => {
  t.deepEqual(dayRangeOf({}, now), { range: { from: '2026-10-29', to: '2026-11-27' } });
  t.deepEqual(dayRangeOf({ to: '2026-03-01' }, now), { range: { from: '2026-01-31', to: '2026-03-01' } });
  t.deepEqual(dayRangeOf({ from: '2026-11-01' }, now), { range: { from: '2026-11-01', to: '2026-11-27' } });
  t.deepEqual(dayRangeOf({ from: '2026-03-01', to: '2026-03-01' }, now), { range: { from: '2026-03-01', to: '2026-03-01' } });
  t.deepEqual(dayRangeOf({ from: '2024-01-01', to: '2024-12-31' }, now), { range: { from: '2024-01-01', to: '2024-12-31' } });
  t.like(dayRangeOf({ from: '2024-01-01', to: '2025-01-01' }, now), { problem: { path: '/to' } });
  t.like(dayRangeOf({ from: '2026-03-02', to: '2026-03-01' }, now), { problem: { path: '/from' } });
  t.like(dayRangeOf({ from: '2026-12-01' }, now), { problem: { path: '/from' } });
});
