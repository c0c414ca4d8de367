import { randomUUID } from 'node:crypto';
import test from 'ava';
import { useTestRedis } from '#testing/redis.js';
import { createSearchChanges, searchChangeEntry } from './changes.js';

// Against the real Redis: what the indexer claims, completes and gives back, each test on its own prefix.

const testRedis = useTestRedis(test);

function changesAt(clock: { now: number }) {
  const prefix = `${testRedis.prefix}:${randomUUID().slice(0, 8)}`;
  return { prefix, changes: createSearchChanges(testRedis.redis(), prefix, () => clock.now) };
}

const ids = (claimed: { changes: Array<{ conversationId: string }> }) => claimed.changes.map((change) => change.conversationId);

test('changes are claimed oldest first, once each, and forgotten once completed', async (t) => {
  const clock = { now: 1_000 };
  const { changes } = changesAt(clock);
  await changes.markChanged('tenant-a', 'c1');
  clock.now = 1_001;
  await changes.markChanged('tenant-b', 'c2');
  await changes.markChanged('tenant-a', 'c1');
  const first = await changes.claim(10, 60_000);
  t.deepEqual(first.changes, [
    { tenantId: 'tenant-a', conversationId: 'c1' },
    { tenantId: 'tenant-b', conversationId: 'c2' },
  ]);
  t.deepEqual(ids(await changes.claim(10, 60_000)), [], 'claimed changes are not handed out twice');
  await changes.complete(first.token, first.changes);
  t.is(await changes.pending(), 0);
});

test('a conversation changed again while its batch runs is taken again after that batch, not during it', async (t) => {
  const clock = { now: 1_000 };
  const { changes } = changesAt(clock);
  await changes.markChanged('tenant-a', 'c1');
  const first = await changes.claim(10, 60_000);
  await changes.markChanged('tenant-a', 'c1');
  t.deepEqual(ids(await changes.claim(10, 60_000)), [], 'not while the first batch holds it');
  await changes.complete(first.token, first.changes);
  t.deepEqual(ids(await changes.claim(10, 60_000)), ['c1'], 'the second change is still there');
});

test('a claim whose worker died lapses and the change is taken again; the late worker completes nothing', async (t) => {
  const clock = { now: 1_000 };
  const { changes } = changesAt(clock);
  await changes.markChanged('tenant-a', 'c1');
  const dead = await changes.claim(10, 5_000);
  clock.now = 7_000;
  const again = await changes.claim(10, 5_000);
  t.deepEqual(ids(again), ['c1']);
  await changes.complete(dead.token, dead.changes);
  t.is(await changes.pending(), 1, 'the live claim still holds it');
  await changes.complete(again.token, again.changes);
  t.is(await changes.pending(), 0);
});

test('a batch Weaviate refused is due again at its retry time, or at once when the conversation changes', async (t) => {
  const clock = { now: 1_000 };
  const { changes } = changesAt(clock);
  await changes.markChanged('tenant-a', 'c1');
  await changes.markChanged('tenant-a', 'c2');
  const refused = await changes.claim(10, 60_000);
  await changes.retryLater(refused.token, refused.changes, 5_000);
  t.deepEqual(ids(await changes.claim(10, 60_000)), [], 'not before its retry time');
  clock.now = 2_000;
  await changes.markChanged('tenant-a', 'c2');
  t.deepEqual(ids(await changes.claim(10, 60_000)), ['c2'], 'a new change pulls it forward');
  clock.now = 5_000;
  t.deepEqual(ids(await changes.claim(10, 60_000)), ['c1']);
});

test('a writer marks a change in a MULTI of its own with the same entry', async (t) => {
  const clock = { now: 1_000 };
  const { prefix, changes } = changesAt(clock);
  const entry = searchChangeEntry(prefix, { tenantId: 'tenant-a', conversationId: 'c9' }, 900);
  await testRedis.redis().multi().zAdd(entry.key, entry.value, { LT: true }).exec();
  t.deepEqual((await changes.claim(10, 60_000)).changes, [{ tenantId: 'tenant-a', conversationId: 'c9' }]);
});
