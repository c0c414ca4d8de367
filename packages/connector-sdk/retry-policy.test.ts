import test from 'ava';
import { isRetryable, parseRetryAfter, retryDelayMs } from './retry-policy.js';

test('only 429, 500, 502 and 503 are retryable', (t) => {
  for (const status of [429, 500, 502, 503]) t.true(isRetryable(status), String(status));
  for (const status of [200, 400, 401, 403, 404, 413, 501, 504]) t.false(isRetryable(status), String(status));
});

test('delay doubles from 1000 ms, caps at 30000 ms, plus jitter below 1000 ms', (t) => {
  const expected = [1000, 2000, 4000, 8000, 16000, 30000];
  expected.forEach((base, index) => {
    const attempt = index + 1;
    t.is(
      retryDelayMs(attempt, () => 0),
      base,
      `attempt ${attempt}, random 0`,
    );
    const high = retryDelayMs(attempt, () => 0.999);
    t.is(high, base + 999, `attempt ${attempt}, random 0.999`);
    t.true(high - base < 1000);
  });
  t.is(
    retryDelayMs(3, () => 0.9999999),
    4999,
    'jitter never reaches 1000',
  );
});

test('Retry-After replaces the computed delay and is honoured as given', (t) => {
  t.is(
    retryDelayMs(1, () => 0.5, '2'),
    2000,
  );
  t.is(
    retryDelayMs(1, () => 0.5, '0'),
    0,
  );
  t.is(
    retryDelayMs(1, () => 0, '120'),
    120_000,
    'not capped at 30 s',
  );
  const now = Date.parse('2025-01-01T00:00:00.000Z');
  t.is(
    retryDelayMs(2, () => 0, 'Wed, 01 Jan 2025 00:00:05 GMT', now),
    5000,
  );
  t.is(parseRetryAfter('Tue, 31 Dec 2024 23:59:00 GMT', now), 0, 'a past date means now');
  t.is(
    retryDelayMs(2, () => 0, 'soon', now),
    2000,
    'unreadable header falls back to backoff',
  );
  t.is(parseRetryAfter(undefined), undefined);
  t.is(parseRetryAfter('2.0', now), 2000, 'fractional seconds, as shop APIs send them');
  t.is(parseRetryAfter('0.5', now), 500);
});
