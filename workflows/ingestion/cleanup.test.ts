import { randomUUID } from 'node:crypto';
import test from 'ava';
import type { Activities } from '#activities/index.js';
import { useWorkflowTestBed } from '#testing/worker.js';
import type { cleanupWorkflow } from './cleanup.js';
import { sourceDeletedSignal } from './messages.js';
import type { OrphanedSource } from './types.js';

const temporal = useWorkflowTestBed(test);

const orphan = (externalId: string): OrphanedSource => ({
  sourceKey: `shop/${externalId}`,
  integrationId: 'shop',
  externalId,
  sourceType: 'PRODUCT',
});

// F38: a retried request makes an item answer twice, and a stray reply (for a source of another
// batch) may arrive; neither may complete the batch or be counted as a deletion.
test('a cleanup counts each source of its batch once, whatever replies arrive twice or astray', async (t) => {
  const taskQueue = `cleanup-${randomUUID()}`;
  const workflowId = `cleanup-${randomUUID()}`;
  const replyFor = (externalId: string) => ({ sourceKey: `shop/${externalId}`, externalId, deleted: true });
  let requested!: () => void;
  const requestsSent = new Promise<void>((resolve) => (requested = resolve));
  const activities: Pick<Activities, 'findOrphanedSources' | 'requestSourceDeletions'> = {
    async findOrphanedSources() {
      return [orphan('a'), orphan('b')];
    },
    async requestSourceDeletions() {
      const handle = temporal.client().workflow.getHandle(workflowId);
      await handle.signal(sourceDeletedSignal, replyFor('a'));
      await handle.signal(sourceDeletedSignal, replyFor('a'));
      await handle.signal(sourceDeletedSignal, replyFor('elsewhere'));
      requested();
    },
  };
  const worker = await temporal.worker(taskQueue, activities);
  await worker.runUntil(async () => {
    const handle = await temporal.client().workflow.start<typeof cleanupWorkflow>('cleanupWorkflow', {
      workflowId,
      taskQueue,
      args: [{ tenantId: randomUUID(), knowledgeBaseId: randomUUID(), sourceOrigin: 'shop', keepExternalIds: [] }],
    });
    // Three replies, none of them for `b`: counted by number, they ended the cleanup with `a` twice.
    await requestsSent;
    await handle.signal(sourceDeletedSignal, replyFor('b'));
    t.deepEqual(await handle.result(), { deleted: 2, orphanedExternalIds: ['a', 'b'] });
  });
});

// F16: a cleanup started with its id pages its orphans (the keep list in Redis) and continues as new
// after each page carrying a cursor and a count; what it deleted goes to its list, not its history.
test('a cleanup by id takes its orphans a page per run and records what each page deleted', async (t) => {
  const taskQueue = `cleanup-${randomUUID()}`;
  const workflowId = `cleanup-${randomUUID()}`;
  const pages: Record<string, { orphans: OrphanedSource[]; cursor?: string }> = {
    '0': { orphans: [orphan('a'), orphan('b')], cursor: '17' },
    '17': { orphans: [orphan('c')], cursor: '4' },
    '4': { orphans: [] },
  };
  const cursors: string[] = [];
  const recorded: Array<{ run: string; externalIds: string[] }> = [];
  const activities: Pick<Activities, 'findOrphanPage' | 'requestSourceDeletions' | 'recordDeletedSources'> = {
    async findOrphanPage(input) {
      cursors.push(input.cursor);
      return pages[input.cursor]!;
    },
    async requestSourceDeletions(input) {
      const handle = temporal.client().workflow.getHandle(input.replyTo);
      for (const source of input.sources)
        await handle.signal(sourceDeletedSignal, {
          sourceKey: source.sourceKey,
          externalId: source.externalId,
          deleted: source.externalId !== 'b',
        });
    },
    async recordDeletedSources(input) {
      recorded.push({ run: input.run, externalIds: input.externalIds });
    },
  };
  const worker = await temporal.worker(taskQueue, activities);
  await worker.runUntil(async () => {
    const handle = await temporal.client().workflow.start<typeof cleanupWorkflow>('cleanupWorkflow', {
      workflowId,
      taskQueue,
      args: [{ tenantId: randomUUID(), knowledgeBaseId: randomUUID(), sourceOrigin: 'shop', cleanupId: 'c1' }],
    });
    const firstRun = handle.firstExecutionRunId;
    t.deepEqual(await handle.result(), { deleted: 2, deletedList: firstRun });
    t.deepEqual(cursors, ['0', '17', '4']);
    t.deepEqual(recorded, [
      { run: firstRun, externalIds: ['a'] },
      { run: firstRun, externalIds: ['c'] },
    ]);
  });
});
