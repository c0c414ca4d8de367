import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import test from 'ava';
import { useTestRedis } from '#testing/redis.js';
import { createFileRecords, FileLimitError, type NewUpload } from './file-records.js';
import { createUploadStaging, UploadTooLargeError } from './staging.js';

const testRedis = useTestRedis(test);
const { prefix } = testRedis;

const records = () => createFileRecords(testRedis.redis(), prefix);
const upload = (name: string, sha256: string): NewUpload => ({ name, sha256, size: 10, contentType: null, stagingId: randomUUID() });

test('an upload is new, its bytes again are unchanged (under any name), and its name with new bytes is a version', async (t) => {
  const files = records();
  const connectorId = randomUUID();
  const first = await files.accept(connectorId, upload('a.pdf', 'h1'), 10);
  t.is(first.outcome, 'new');
  t.like(first.file, { name: 'a.pdf', sha256: 'h1', status: 'queued', ingested: null });

  t.like(await files.accept(connectorId, upload('a.pdf', 'h1'), 10), { outcome: 'unchanged', file: { id: first.file.id } });
  t.like(await files.accept(connectorId, upload('b.pdf', 'h1'), 10), { outcome: 'unchanged', file: { id: first.file.id } });

  await files.update(connectorId, first.file.id, (file) => ({
    ...file,
    status: 'ingested',
    ingested: { sha256: 'h1', kind: 'pdf', items: 3, ingestedAt: 'then' },
  }));
  const version = await files.accept(connectorId, upload('a.pdf', 'h2'), 10);
  t.like(version, { outcome: 'version', replacedStagingId: first.file.stagingId, file: { id: first.file.id, sha256: 'h2', status: 'queued' } });
  t.like(version.file.ingested, { sha256: 'h1', items: 3 }, 'what the knowledge base holds stays until the version is read');
  t.like(await files.accept(connectorId, upload('c.pdf', 'h1'), 10), { outcome: 'new' }, 'the old bytes are no longer the file');
  t.like(await files.accept(connectorId, upload('a.pdf', 'h4'), 10), { outcome: 'version', file: { id: first.file.id } }, 'its name still is');
  t.deepEqual(
    (await files.list(connectorId)).map((file) => file.name),
    ['a.pdf', 'c.pdf'],
  );
});

test('a failed upload sent again is read again', async (t) => {
  const files = records();
  const connectorId = randomUUID();
  const { file } = await files.accept(connectorId, upload('a.pdf', 'h1'), 10);
  await files.update(connectorId, file.id, (latest) => ({ ...latest, status: 'failed', error: { code: 'corrupt', message: 'x', at: 'now' } }));
  t.like(await files.accept(connectorId, upload('a.pdf', 'h1'), 10), { outcome: 'version', file: { id: file.id, status: 'queued' } });
});

test('a source at its limit takes versions but no new file', async (t) => {
  const files = records();
  const connectorId = randomUUID();
  await files.accept(connectorId, upload('a.pdf', 'h1'), 1);
  await t.throwsAsync(files.accept(connectorId, upload('b.pdf', 'h2'), 1), { instanceOf: FileLimitError, message: /1 files, the most/ });
  t.like(await files.accept(connectorId, upload('a.pdf', 'h3'), 1), { outcome: 'version' });
});

test('an update loses no race: a change written meanwhile is read again before the update applies', async (t) => {
  const files = records();
  const connectorId = randomUUID();
  const { file } = await files.accept(connectorId, upload('a.pdf', 'h1'), 10);
  const seen: string[] = [];
  const left = await files.update(connectorId, file.id, (latest) => {
    seen.push(latest.sha256);
    // Another upload's record lands between this update's read and its write (sent first on the same connection).
    if (seen.length === 1) void testRedis.redis().hSet(`${prefix}:connector:${connectorId}:files`, file.id, JSON.stringify({ ...latest, sha256: 'h2' }));
    return latest.sha256 === 'h1' ? { ...latest, status: 'reading' } : undefined;
  });
  t.deepEqual(seen, ['h1', 'h2']);
  t.like(left, { sha256: 'h2', status: 'queued' });
  t.like(await files.get(connectorId, file.id), { sha256: 'h2', status: 'queued' });
});

test('a file being removed is not the file of its name: the name is free, and forgetting it keeps the new one', async (t) => {
  const files = records();
  const connectorId = randomUUID();
  const { file } = await files.accept(connectorId, upload('a.pdf', 'h1'), 10);
  t.like(await files.markRemoving(connectorId, file.id), { status: 'removing' });
  const again = await files.accept(connectorId, upload('a.pdf', 'h1'), 10);
  t.is(again.outcome, 'new');
  t.not(again.file.id, file.id);
  await files.forget(connectorId, file.id);
  t.is(await files.get(connectorId, file.id), undefined);
  t.like(await files.accept(connectorId, upload('a.pdf', 'h1'), 10), { outcome: 'unchanged', file: { id: again.file.id } });
});

test('staging keeps the bytes in chunks, hashed on the way, and keeps nothing of an upload over the limit', async (t) => {
  const staging = createUploadStaging(testRedis.redis(), prefix);
  const connectorId = randomUUID();
  const bytes = Buffer.alloc(700 * 1024, 'abc');
  const staged = await staging.stage(connectorId, Readable.from([bytes.subarray(0, 1000), bytes.subarray(1000)]), bytes.byteLength);
  t.like(staged, { size: bytes.byteLength, sha256: (await import('node:crypto')).createHash('sha256').update(bytes).digest('hex') });
  const key = `${prefix}:connector:${connectorId}:staged:${staged.stagingId}`;
  t.is(await testRedis.redis().lLen(key), 3, '256 KiB chunks');
  t.true((await testRedis.redis().ttl(key)) > 6 * 24 * 3600);
  t.deepEqual(await staging.read(connectorId, staged.stagingId), bytes);
  await staging.discard(connectorId, staged.stagingId);
  t.is(await staging.read(connectorId, staged.stagingId), undefined);

  await t.throwsAsync(staging.stage(connectorId, Readable.from([bytes]), bytes.byteLength - 1), { instanceOf: UploadTooLargeError });
  t.deepEqual(await testRedis.redis().keys(`${prefix}:connector:${connectorId}:staged:*`), []);
});
