import { randomUUID } from 'node:crypto';
import test from 'ava';
import { useTestRedis } from '#testing/redis.js';
import { connectorKeys } from './redis-keys.js';
import { createSyncState } from './sync-state.js';

const testRedis = useTestRedis(test);
const { prefix } = testRedis;
const keys = connectorKeys(prefix);

/** A sync state on its own clock, for a connector of its own; `tick` moves the clock on by a minute. */
function setup() {
  let time = Date.parse('2025-03-01T10:00:00.000Z');
  const state = createSyncState(testRedis.redis(), prefix, { now: () => new Date(time) });
  return {
    state,
    connectorId: randomUUID(),
    tick: () => {
      time += 60_000;
      return new Date(time).toISOString();
    },
    clock: () => new Date(time).toISOString(),
  };
}

const sorted = (ids: string[]) => [...ids].sort();

test('beginRun is idempotent for the same run id and replaces a different run', async (t) => {
  const { state, connectorId, tick, clock } = setup();
  const first = await state.beginRun(connectorId, 'run-1', 'full');
  t.deepEqual(first, { runId: 'run-1', mode: 'full', startedAt: clock() });
  await state.noteSent(connectorId, 'run-1', ['a']);

  tick();
  t.deepEqual(await state.beginRun(connectorId, 'run-1', 'incremental'), first, 'a retried start changes nothing');
  t.deepEqual((await state.status(connectorId)).running, { ...first, sent: 1, unchanged: 0 });

  const startedAt = tick();
  const second = await state.beginRun(connectorId, 'run-2', 'incremental');
  t.deepEqual(second, { runId: 'run-2', mode: 'incremental', startedAt });
  t.deepEqual((await state.status(connectorId)).running, { ...second, sent: 0, unchanged: 0 });
});

test('noteSent counts for the current run only; the seen set records every run', async (t) => {
  const { state, connectorId } = setup();
  await state.beginRun(connectorId, 'old', 'full');
  await state.beginRun(connectorId, 'current', 'full');

  await state.noteSent(connectorId, 'current', ['a', 'b']);
  await state.noteSent(connectorId, 'current', ['c']);
  await state.noteSent(connectorId, 'current', []);
  await state.noteSent(connectorId, 'old', ['x', 'y']);

  t.is((await state.status(connectorId)).running?.sent, 3);
  t.deepEqual(sorted(await state.seen(connectorId, 'current')), ['a', 'b', 'c']);
  t.deepEqual(sorted(await state.seen(connectorId, 'old')), ['x', 'y']);
  const ttl = await testRedis.redis().ttl(keys.seen(connectorId, 'current'));
  t.true(ttl > 0 && ttl <= 7 * 24 * 3600, 'the seen set expires');
  t.deepEqual(await state.seen(connectorId, 'never'), []);
});

test('a page noted again (a retried activity) is counted once', async (t) => {
  const { state, connectorId } = setup();
  await state.beginRun(connectorId, 'run-1', 'full');
  await state.noteSent(connectorId, 'run-1', ['a', 'b']);
  await state.noteSent(connectorId, 'run-1', ['a', 'b']);
  t.deepEqual(sorted(await state.seen(connectorId, 'run-1')), ['a', 'b']);
  t.is((await state.status(connectorId)).running?.sent, 2);
});

test('the watermark is the latest modification time a run noted, and moves only when the run finishes', async (t) => {
  const { state, connectorId } = setup();
  await state.beginRun(connectorId, 'run-1', 'incremental');
  await state.noteSent(connectorId, 'run-1', ['a'], '2025-02-02T00:00:00.000Z');
  await state.noteSent(connectorId, 'run-1', ['b'], '2025-02-03T00:00:00.000Z');
  await state.noteSent(connectorId, 'run-1', ['c'], '2025-02-01T00:00:00.000Z');
  await state.noteSent(connectorId, 'run-1', ['d']);
  // Another run's modification times are not this run's.
  await state.noteSent(connectorId, 'stale', ['e'], '2025-02-09T00:00:00.000Z');
  t.is((await state.status(connectorId)).watermark, undefined);

  await state.finishRun(connectorId, 'run-1', { deleted: 0 });
  t.is((await state.status(connectorId)).watermark, '2025-02-03T00:00:00.000Z');

  // A run that noted no modification time leaves the watermark where it was.
  await state.beginRun(connectorId, 'run-2', 'incremental');
  await state.noteSent(connectorId, 'run-2', ['f']);
  await state.finishRun(connectorId, 'run-2', { deleted: 0 });
  t.is((await state.status(connectorId)).watermark, '2025-02-03T00:00:00.000Z');

  // A run that began again starts from nothing: what the replaced run noted does not count.
  await state.beginRun(connectorId, 'run-3', 'incremental');
  await state.noteSent(connectorId, 'run-3', ['g'], '2025-02-10T00:00:00.000Z');
  await state.beginRun(connectorId, 'run-4', 'incremental');
  await state.noteSent(connectorId, 'run-4', ['h'], '2025-02-04T00:00:00.000Z');
  await state.finishRun(connectorId, 'run-4', { deleted: 0 });
  t.is((await state.status(connectorId)).watermark, '2025-02-04T00:00:00.000Z');
});

test("a full run's finish replaces the known set with what it kept and records the full sync", async (t) => {
  const { state, connectorId, tick } = setup();
  await state.beginRun(connectorId, 'run-1', 'full');
  await state.noteSent(connectorId, 'run-1', ['old-1', 'old-2']);
  await state.finishRun(connectorId, 'run-1', { deleted: 0, keep: ['old-1', 'old-2'] });
  t.deepEqual(sorted(await state.known(connectorId)), ['old-1', 'old-2']);

  tick();
  const run = await state.beginRun(connectorId, 'run-2', 'full');
  await state.noteSent(connectorId, 'run-2', ['a', 'b']);
  const finishedAt = tick();
  const summary = await state.finishRun(connectorId, 'run-2', { deleted: 2, keep: ['a', 'b', 'c'] });

  t.deepEqual(summary, { ...run, finishedAt, outcome: 'succeeded', sent: 2, unchanged: 0, deleted: 2 });
  t.deepEqual(sorted(await state.known(connectorId)), ['a', 'b', 'c']);
  const status = await state.status(connectorId);
  t.is(status.lastFullSyncAt, run.startedAt);
  t.deepEqual(status.last, summary);
  t.is(status.running, undefined);
  t.deepEqual(await state.finished(connectorId, 'run-2'), summary);
  t.deepEqual(await state.seen(connectorId, 'run-2'), [], "the run's seen set is dropped");

  // A full run that kept nothing leaves nothing known.
  await state.beginRun(connectorId, 'run-3', 'full');
  await state.finishRun(connectorId, 'run-3', { deleted: 3, keep: [] });
  t.deepEqual(await state.known(connectorId), []);
});

test("an incremental run's finish adds what it sent to the known set", async (t) => {
  const { state, connectorId, tick } = setup();
  const full = await state.beginRun(connectorId, 'full-1', 'full');
  await state.finishRun(connectorId, 'full-1', { deleted: 0, keep: ['a', 'b'] });

  tick();
  const run = await state.beginRun(connectorId, 'inc-1', 'incremental');
  await state.noteSent(connectorId, 'inc-1', ['b', 'c']);
  const summary = await state.finishRun(connectorId, 'inc-1', { deleted: 0 });

  t.like(summary, { runId: 'inc-1', mode: 'incremental', startedAt: run.startedAt, outcome: 'succeeded', sent: 2 });
  t.deepEqual(sorted(await state.known(connectorId)), ['a', 'b', 'c']);
  t.is((await state.status(connectorId)).lastFullSyncAt, full.startedAt, 'an incremental run is not a full sync');
});

test('finishing a run twice returns the same summary and changes nothing', async (t) => {
  const { state, connectorId, tick } = setup();
  await state.beginRun(connectorId, 'run-1', 'full');
  await state.noteSent(connectorId, 'run-1', ['a'], '2025-02-01T00:00:00.000Z');
  const summary = await state.finishRun(connectorId, 'run-1', { deleted: 1, keep: ['a'] });
  const status = await state.status(connectorId);

  tick();
  t.deepEqual(await state.finishRun(connectorId, 'run-1', { deleted: 5, keep: ['z'] }), summary);
  t.deepEqual(await state.status(connectorId), status);
  t.deepEqual(await state.known(connectorId), ['a']);
});

test('a run that is not the current one cannot finish', async (t) => {
  const { state, connectorId } = setup();
  await t.throwsAsync(state.finishRun(connectorId, 'none', { deleted: 0 }), { message: /not the connector's current run/ });
  await state.beginRun(connectorId, 'run-1', 'full');
  await t.throwsAsync(state.finishRun(connectorId, 'other', { deleted: 0 }), { message: /not the connector's current run/ });
  t.is((await state.status(connectorId)).running?.runId, 'run-1');
});

test('failRun records the failure and leaves the watermark and the known set as they were', async (t) => {
  const { state, connectorId, tick } = setup();
  await state.beginRun(connectorId, 'run-1', 'incremental');
  await state.noteSent(connectorId, 'run-1', ['a'], '2025-02-01T00:00:00.000Z');
  await state.finishRun(connectorId, 'run-1', { deleted: 0 });

  tick();
  const run = await state.beginRun(connectorId, 'run-2', 'incremental');
  await state.noteSent(connectorId, 'run-2', ['b', 'c'], '2025-02-05T00:00:00.000Z');
  const finishedAt = tick();
  await state.failRun(connectorId, 'run-2', 'the site answered 500');

  const failed = { ...run, finishedAt, outcome: 'failed', sent: 2, unchanged: 0, deleted: 0, error: 'the site answered 500' };
  const status = await state.status(connectorId);
  t.deepEqual(status.last, failed);
  t.is(status.running, undefined);
  t.is(status.watermark, '2025-02-01T00:00:00.000Z');
  t.deepEqual(await state.known(connectorId), ['a']);
  t.deepEqual(await state.finished(connectorId, 'run-2'), failed);

  // Failing again, or finishing, changes nothing.
  tick();
  await state.failRun(connectorId, 'run-2', 'again');
  t.deepEqual((await state.status(connectorId)).last, failed);
  t.deepEqual(await state.finishRun(connectorId, 'run-2', { deleted: 0 }), failed);
  t.deepEqual(await state.known(connectorId), ['a']);
});

test('failRun of another run leaves the current run running', async (t) => {
  const { state, connectorId } = setup();
  const current = await state.beginRun(connectorId, 'current', 'full');
  await state.noteSent(connectorId, 'current', ['a', 'b']);

  await state.failRun(connectorId, 'stale', 'timed out');

  const status = await state.status(connectorId);
  t.deepEqual(status.running, { ...current, sent: 2, unchanged: 0 });
  t.like(status.last, { runId: 'stale', outcome: 'failed', error: 'timed out' });
  t.deepEqual(sorted(await state.seen(connectorId, 'current')), ['a', 'b']);
  const summary = await state.finishRun(connectorId, 'current', { deleted: 0, keep: ['a', 'b'] });
  t.like(summary, { runId: 'current', outcome: 'succeeded', sent: 2 });
});

test("a failed run that is not current does not take the current run's count as its own", async (t) => {
  const { state, connectorId } = setup();
  await state.beginRun(connectorId, 'current', 'full');
  await state.noteSent(connectorId, 'current', ['a', 'b']);
  await state.failRun(connectorId, 'stale', 'timed out');
  t.is((await state.status(connectorId)).last?.sent, 0);
});

test('a run that failed before it began is still recorded', async (t) => {
  const { state, connectorId, clock } = setup();
  await state.failRun(connectorId, 'run-1', 'Redis is unavailable');
  t.deepEqual((await state.status(connectorId)).last, {
    runId: 'run-1',
    mode: 'full',
    startedAt: clock(),
    finishedAt: clock(),
    outcome: 'failed',
    sent: 0,
    unchanged: 0,
    deleted: 0,
    error: 'Redis is unavailable',
  });
});

test('ids noted unchanged are seen by the run and counted apart from those sent, once each', async (t) => {
  const { state, connectorId } = setup();
  await state.beginRun(connectorId, 'run-1', 'full');
  await state.noteSent(connectorId, 'run-1', ['a']);
  await state.noteUnchanged(connectorId, 'run-1', ['b', 'c']);
  await state.noteUnchanged(connectorId, 'run-1', ['b', 'c']);
  t.like((await state.status(connectorId)).running, { sent: 1, unchanged: 2 });
  t.deepEqual((await state.seen(connectorId, 'run-1')).sort(), ['a', 'b', 'c']);
  const summary = await state.finishRun(connectorId, 'run-1', { deleted: 0, keep: ['a', 'b', 'c'] });
  t.like(summary, { sent: 1, unchanged: 2 });
});

test('a full sync request is taken once', async (t) => {
  const { state, connectorId } = setup();
  t.false(await state.takeFullSyncRequest(connectorId));
  await state.requestFullSync(connectorId);
  await state.requestFullSync(connectorId);
  t.true(await state.takeFullSyncRequest(connectorId));
  t.false(await state.takeFullSyncRequest(connectorId));
});

test('the storefront is remembered, the latest one wins', async (t) => {
  const { state, connectorId } = setup();
  t.is(await state.storefront(connectorId), undefined);
  await state.rememberStorefront(connectorId, { url: 'https://old.example', currency: 'USD' });
  await state.rememberStorefront(connectorId, { url: 'https://northwind.example', currency: 'EUR' });
  t.deepEqual(await state.storefront<{ url: string; currency: string }>(connectorId), {
    url: 'https://northwind.example',
    currency: 'EUR',
  });
});

test('fingerprints are saved, read back for the ids asked, and forgotten', async (t) => {
  const { state, connectorId } = setup();
  t.deepEqual(await state.fingerprints(connectorId, []), new Map());
  t.deepEqual(await state.fingerprints(connectorId, ['a']), new Map());

  await state.saveFingerprints(connectorId, new Map());
  await state.saveFingerprints(
    connectorId,
    new Map([
      ['a', 'c1:m1'],
      ['b', 'c2:m2'],
    ]),
  );
  await state.saveFingerprints(connectorId, new Map([['a', 'c3:m3']]));
  t.deepEqual(
    await state.fingerprints(connectorId, ['a', 'b', 'c']),
    new Map([
      ['a', 'c3:m3'],
      ['b', 'c2:m2'],
    ]),
  );

  await state.forget(connectorId, ['a', 'c']);
  await state.forget(connectorId, []);
  t.deepEqual(await state.fingerprints(connectorId, ['a', 'b']), new Map([['b', 'c2:m2']]));
  t.deepEqual(await state.fingerprints(randomUUID(), ['b']), new Map(), 'fingerprints are per connector');
});

test('status is empty before any run, shows the run while it runs and the summary after', async (t) => {
  const { state, connectorId, tick } = setup();
  t.deepEqual(await state.status(connectorId), {});

  const run = await state.beginRun(connectorId, 'run-1', 'full');
  await state.noteSent(connectorId, 'run-1', ['a', 'b', 'c'], '2025-02-01T00:00:00.000Z');
  t.deepEqual(await state.status(connectorId), { running: { ...run, sent: 3, unchanged: 0 } });

  const finishedAt = tick();
  await state.finishRun(connectorId, 'run-1', { deleted: 0, keep: ['a', 'b', 'c'] });
  t.deepEqual(await state.status(connectorId), {
    last: { ...run, finishedAt, outcome: 'succeeded', sent: 3, unchanged: 0, deleted: 0 },
    lastFullSyncAt: run.startedAt,
    watermark: '2025-02-01T00:00:00.000Z',
  });

  const next = await state.beginRun(connectorId, 'run-2', 'incremental');
  t.deepEqual(await state.status(connectorId), {
    running: { ...next, sent: 0, unchanged: 0 },
    last: { ...run, finishedAt, outcome: 'succeeded', sent: 3, unchanged: 0, deleted: 0 },
    lastFullSyncAt: run.startedAt,
    watermark: '2025-02-01T00:00:00.000Z',
  });
});
