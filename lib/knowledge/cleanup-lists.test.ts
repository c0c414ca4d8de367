import { randomUUID } from 'node:crypto';
import test from 'ava';
import { useTestRedis } from '#testing/redis.js';
import { cleanupIdOf, createCleanupLists, KeepListMissingError } from './cleanup-lists.js';

const testRedis = useTestRedis(test);
const lists = () => createCleanupLists(testRedis.redis(), testRedis.prefix);

test('a cleanup id names what is asked: the keep list as a set, the knowledge base and the origin', (t) => {
  const id = cleanupIdOf({ knowledgeBaseId: 'kb', sourceOrigin: 'shop', keepExternalIds: ['b', 'a', 'a'] });
  t.is(cleanupIdOf({ knowledgeBaseId: 'kb', sourceOrigin: 'shop', keepExternalIds: ['a', 'b'] }), id);
  t.not(cleanupIdOf({ knowledgeBaseId: 'kb', sourceOrigin: 'shop', keepExternalIds: ['a'] }), id);
  t.not(cleanupIdOf({ knowledgeBaseId: 'kb', sourceOrigin: 'cms', keepExternalIds: ['a', 'b'] }), id);
  t.not(cleanupIdOf({ knowledgeBaseId: 'kb2', sourceOrigin: 'shop', keepExternalIds: ['a', 'b'] }), id);
  t.regex(id, /^[A-Za-z0-9_-]{32}$/);
});

test('a staged keep list answers membership; an empty one keeps nothing; one never staged refuses to answer', async (t) => {
  const tenantId = randomUUID();
  const keep = Array.from({ length: 2_500 }, (_, i) => `id-${i}`);
  await lists().stage(tenantId, 'full', keep);
  t.deepEqual(await lists().keeps(tenantId, 'full', ['id-0', 'id-2499', 'id-2500']), [true, true, false]);

  await lists().stage(tenantId, 'empty', []);
  t.deepEqual(await lists().keeps(tenantId, 'empty', ['id-0']), [false]);

  await t.throwsAsync(lists().keeps(tenantId, 'never', ['id-0']), { instanceOf: KeepListMissingError });
  await t.throwsAsync(lists().keeps(randomUUID(), 'full', ['id-0']), { instanceOf: KeepListMissingError }, 'per tenant');
});

test('what each run deleted is listed apart, in order', async (t) => {
  const tenantId = randomUUID();
  await lists().recordDeleted(tenantId, 'c', 'run-1', ['a', 'b']);
  await lists().recordDeleted(tenantId, 'c', 'run-1', ['c']);
  await lists().recordDeleted(tenantId, 'c', 'run-2', ['d']);
  t.deepEqual(await lists().deleted(tenantId, 'c', 'run-1'), ['a', 'b', 'c']);
  t.deepEqual(await lists().deleted(tenantId, 'c', 'run-2'), ['d']);
  t.deepEqual(await lists().deleted(tenantId, 'c', 'run-3'), []);
});
