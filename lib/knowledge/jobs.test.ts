import { randomUUID } from 'node:crypto';
import test from 'ava';
import { useTestRedis } from '#testing/redis.js';
import { createJobStore } from './jobs.js';

const testRedis = useTestRedis(test);
const jobsAndId = () => ({
  jobs: createJobStore(testRedis.redis(), testRedis.prefix),
  tenantId: randomUUID(),
  jobId: randomUUID(),
});

test('an older version finishing after a newer one was accepted leaves the job queued; the newer one writes', async (t) => {
  const { jobs, tenantId, jobId } = jobsAndId();
  const older = await jobs.accept(tenantId, jobId, 'kb');
  await jobs.set(tenantId, jobId, { status: 'processing', knowledgeBaseId: 'kb' }, older.generation);
  const newer = await jobs.accept(tenantId, jobId, 'kb');
  t.true(newer.generation > older.generation);

  t.false(await jobs.set(tenantId, jobId, { status: 'searchable', knowledgeBaseId: 'kb' }, older.generation));
  t.is((await jobs.get(tenantId, jobId))?.status, 'queued', 'the older activity does not undo the newer accept');

  t.true(await jobs.set(tenantId, jobId, { status: 'searchable', knowledgeBaseId: 'kb' }, newer.generation));
  t.is((await jobs.get(tenantId, jobId))?.status, 'searchable');
});

test('restoring after a failed accept puts the previous status back, and the version in flight may still finish', async (t) => {
  const { jobs, tenantId, jobId } = jobsAndId();
  const first = await jobs.accept(tenantId, jobId, 'kb');
  await jobs.set(tenantId, jobId, { status: 'processing', knowledgeBaseId: 'kb' }, first.generation);
  const failed = await jobs.accept(tenantId, jobId, 'kb');
  await jobs.restore(tenantId, jobId, failed);
  t.is((await jobs.get(tenantId, jobId))?.status, 'processing');

  t.true(await jobs.set(tenantId, jobId, { status: 'searchable', knowledgeBaseId: 'kb' }, first.generation));
  t.is((await jobs.get(tenantId, jobId))?.status, 'searchable');
  const next = await jobs.accept(tenantId, jobId, 'kb');
  t.true(next.generation > failed.generation, 'a generation is never handed out twice');
});

test('restoring does not clobber a status the accepted version wrote in between', async (t) => {
  const { jobs, tenantId, jobId } = jobsAndId();
  await jobs.accept(tenantId, jobId, 'kb');
  // Temporal took the signal but the answer was lost: the version ran before the API restored.
  const ambiguous = await jobs.accept(tenantId, jobId, 'kb');
  await jobs.set(tenantId, jobId, { status: 'searchable', knowledgeBaseId: 'kb' }, ambiguous.generation);
  await jobs.restore(tenantId, jobId, ambiguous);
  t.is((await jobs.get(tenantId, jobId))?.status, 'searchable');
});

test('a write without a generation (a deletion, a version accepted before generations) is applied as before', async (t) => {
  const { jobs, tenantId, jobId } = jobsAndId();
  await jobs.accept(tenantId, jobId, 'kb');
  t.true(await jobs.set(tenantId, jobId, { status: 'deleted', knowledgeBaseId: 'kb' }));
  t.is((await jobs.get(tenantId, jobId))?.status, 'deleted');
  const restored = await jobs.accept(tenantId, jobId, 'kb2');
  await jobs.restore(tenantId, jobId, restored);
  t.like(await jobs.get(tenantId, jobId), { status: 'deleted', knowledgeBaseId: 'kb' });
});
