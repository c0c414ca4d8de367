import test from 'ava';
import type { OutboundAnswer, OutboundHttp } from '#platform/outbound/outbound-http.js';
import { getPatiently } from './retrying-get.js';

/*
 * getPatiently's bounds (F14): the waits of a source's client end within its activity's budget, and the
 * activity's cancellation ends the request or wait under way. The network is stubbed at `OutboundHttp`.
 */

const unavailable = (retryAfterSeconds: number): OutboundAnswer => ({
  status: 503,
  statusText: 'Service Unavailable',
  url: 'https://shop.example/',
  headers: { get: (name) => (name === 'retry-after' ? String(retryAfterSeconds) : null) },
  text: '',
});

/** A source that answers every request 503 with Retry-After: 60, counting the requests. */
function alwaysUnavailable() {
  const seen = { requests: 0 };
  const http: OutboundHttp = {
    get: async () => {
      seen.requests += 1;
      return unavailable(60);
    },
    close: async () => undefined,
  };
  return { http, seen };
}

test('a wait that would end past the deadline is not begun: the last answer is returned at once', async (t) => {
  const { http, seen } = alwaysUnavailable();
  let clock = 0;
  const slept: number[] = [];
  const last = await getPatiently(
    'https://site.example/',
    {},
    {
      http,
      now: () => clock,
      sleep: async (ms) => {
        slept.push(ms);
        clock += ms;
      },
      maxWaitMs: 30_000,
      deadline: 100_000,
    },
  );
  // 30 s, 30 s, 30 s fit in 100 s; a fourth wait would end at 120 s.
  t.deepEqual(slept, [30_000, 30_000, 30_000]);
  t.is(seen.requests, 4);
  t.is(last.answer?.status, 503);
  t.is(last.retries, 3);
});

test('without a deadline the waits are bounded by maxRetries alone, as before', async (t) => {
  const { http, seen } = alwaysUnavailable();
  const slept: number[] = [];
  await getPatiently('https://site.example/', {}, { http, sleep: async (ms) => void slept.push(ms) });
  t.deepEqual(slept, [60_000, 60_000, 60_000, 60_000, 60_000]);
  t.is(seen.requests, 6);
});

test("the activity's cancellation ends a request that hangs, with the cancellation's reason", async (t) => {
  const controller = new AbortController();
  const http: OutboundHttp = {
    get: (_url, { signal }) =>
      new Promise((_resolve, reject) => {
        signal?.addEventListener('abort', () => reject(new Error('aborted')));
      }),
    close: async () => undefined,
  };
  const heard: string[] = [];
  const pending = getPatiently(
    'https://site.example/',
    {},
    { http, signal: controller.signal, onAnswer: () => heard.push('answer') },
  );
  controller.abort(new Error('TIMED_OUT'));
  await t.throwsAsync(pending, { message: 'TIMED_OUT' });
  t.deepEqual(heard, [], 'no progress was reported');
});

test("the activity's cancellation ends a wait for Retry-After", async (t) => {
  const { http } = alwaysUnavailable();
  const controller = new AbortController();
  const pending = getPatiently(
    'https://site.example/',
    {},
    {
      http,
      signal: controller.signal,
      onWait: () => controller.abort(new Error('TIMED_OUT')),
    },
  );
  await t.throwsAsync(pending, { message: 'TIMED_OUT' });
});

test('each answer, whatever its status, is reported as progress', async (t) => {
  const { http } = alwaysUnavailable();
  let answers = 0;
  await getPatiently(
    'https://site.example/',
    {},
    { http, maxRetries: 2, sleep: async () => undefined, onAnswer: () => (answers += 1) },
  );
  t.is(answers, 3);
});
