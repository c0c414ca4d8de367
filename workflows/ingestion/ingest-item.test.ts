import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import proto from '@temporalio/proto';
import { Worker } from '@temporalio/worker';
import test from 'ava';
import type { Activities } from '#activities/index.js';
import type { JobStatus } from '#knowledge/jobs.js';
import { createIngestionClient, type IngestItem } from '#knowledge/ingestion-client.js';
import { ingestWorkflowId } from '../ids.js';
import { sourceDeletedSignal } from './messages.js';
import { ingestTaskQueue } from './task-queues.js';
import type { SourceDeletion } from './types.js';
import { useWorkflowTestBed } from '#testing/worker.js';

// The workflow's own logic, against the real Temporal server, with activities that only record
// what they were asked (typed as the real ones, so a rename breaks this test at compile time).

const temporal = useWorkflowTestBed(test);
const knowledgeBaseId = '5c0f7e73-a4fe-4df6-9bf1-bf89a4065476';

const version = (externalId: string, content: string): IngestItem => ({
  integrationId: 'cms',
  sourceType: 'PAGE',
  externalId,
  sourceOrigin: 'cms',
  data: { title: 'Page', content },
});

/** The ingestion client on a test's own task queues; job statuses are the API's business, not this test's. */
const ingestionOn = (taskQueueBase: string) =>
  createIngestionClient(temporal.client(), taskQueueBase, {
    accept: async () => ({ generation: 1, previous: {} }),
    restore: async () => undefined,
    queued: () => undefined,
  });

/** The activities the ingestion workflows call, typed from the real ones so a rename breaks this test. */
type IngestionActivities = Pick<
  Activities,
  'ingestSource' | 'deleteSource' | 'reembedSource' | 'recordIngestFailure' | 'findOrphanedSources' | 'requestSourceDeletions'
>;

/**
 * Activities that record their calls, in order in `calls` too; the first ingestSource waits until
 * `release()`. An ingestion of content starting with `same:` is skipped (the hash rule), so the
 * record stays in its old embedding space.
 */
function recordingActivities() {
  const ingested: string[] = [];
  const deleted: string[] = [];
  const calls: string[] = [];
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let firstStarted!: () => void;
  const started = new Promise<void>((resolve) => (firstStarted = resolve));
  const activities: IngestionActivities = {
    async ingestSource({ operation }): Promise<JobStatus> {
      ingested.push(operation.data.content);
      const metadataOnly = operation.options.metadataOnly ? ' (metadata only)' : '';
      const metadata = operation.data.metadata ? ` ${JSON.stringify(operation.data.metadata)}` : '';
      calls.push(`ingest ${operation.data.content}${metadataOnly}${metadata}`);
      if (ingested.length === 1) {
        firstStarted();
        await released;
      }
      return operation.data.content.startsWith('same:') ? 'skipped' : 'searchable';
    },
    async deleteSource({ identity }) {
      deleted.push(identity.externalId);
      calls.push('delete');
      return true;
    },
    async reembedSource({ knowledgeBaseId }) {
      calls.push(`reembed ${knowledgeBaseId}`);
      return true;
    },
    async recordIngestFailure() {},
    async findOrphanedSources() {
      return [];
    },
    async requestSourceDeletions() {},
  };
  return { activities, ingested, deleted, calls, started, release };
}

async function withWorker<T>(taskQueueBase: string, activities: IngestionActivities, body: () => Promise<T>): Promise<T> {
  const worker = await temporal.worker(ingestTaskQueue(taskQueueBase), activities);
  return worker.runUntil(body);
}

/** An item on a test's own task queues with recording activities, and the operations a test sends it. */
function itemOnItsOwnQueues(externalId: string) {
  const taskQueueBase = `ingest-item-${randomUUID()}`;
  const identity = { tenantId: randomUUID(), integrationId: 'cms', externalId };
  const recording = recordingActivities();
  const ingestion = ingestionOn(taskQueueBase);
  return {
    ...recording,
    identity,
    ingestion,
    send: (content: string) => ingestion.acceptOne(identity.tenantId, knowledgeBaseId, version(externalId, content), 'bulk'),
    /** A metadata-only version: new metadata, no new text. */
    sendMetadata: (metadata: Record<string, unknown>) =>
      ingestion.acceptOne(
        identity.tenantId,
        knowledgeBaseId,
        {
          ...version(externalId, 'unchanged'),
          data: { title: 'Page', content: 'unchanged', metadata },
          options: { metadataOnly: true },
        },
        'bulk',
      ),
    reembed: () => ingestion.reembed(identity, { knowledgeBaseId, sourceType: 'PAGE' }),
    /** Runs `body` beside a worker, then waits until the item's workflow has nothing left to do. */
    run: (body: () => Promise<void>) =>
      withWorker(taskQueueBase, recording.activities, async () => {
        await body();
        await temporal.client().workflow.getHandle(ingestWorkflowId(identity)).result();
      }),
  };
}

test('versions that arrive while one is processed collapse to the latest', async (t) => {
  const taskQueueBase = `ingest-item-${randomUUID()}`;
  const identity = { tenantId: randomUUID(), integrationId: 'cms', externalId: 'page-1' };
  const { activities, ingested, started, release } = recordingActivities();
  const ingestion = ingestionOn(taskQueueBase);
  const send = (content: string) =>
    ingestion.acceptOne(identity.tenantId, knowledgeBaseId, version(identity.externalId, content), 'bulk');

  await withWorker(taskQueueBase, activities, async () => {
    await send('v1');
    await started;
    for (const content of ['v2', 'v3', 'v4']) await send(content);
    release();
    await temporal.client().workflow.getHandle(ingestWorkflowId(identity)).result();
  });

  t.deepEqual(ingested, ['v1', 'v4']);
});

test('a delete overtaken by a newer version is answered as not done', async (t) => {
  const taskQueueBase = `ingest-item-${randomUUID()}`;
  const identity = { tenantId: randomUUID(), integrationId: 'cms', externalId: 'page-2' };
  const { activities, ingested, deleted, started, release } = recordingActivities();
  const replies: SourceDeletion[] = [];

  // A stand-in for the cleanup workflow: it only needs to exist to receive the reply.
  const cleanupId = `cleanup-stand-in-${randomUUID()}`;
  await withWorker(taskQueueBase, activities, async () => {
    const cleanup = await temporal.client().workflow.start('cleanupWorkflow', {
      workflowId: cleanupId,
      taskQueue: `${taskQueueBase}-unpolled`,
      args: [{ tenantId: identity.tenantId, knowledgeBaseId, sourceOrigin: 'cms', keepExternalIds: [] }],
    });
    const ingestion = ingestionOn(taskQueueBase);
    await ingestion.acceptOne(identity.tenantId, knowledgeBaseId, version(identity.externalId, 'v1'), 'bulk');
    await started;
    await ingestion.remove(identity, {
      knowledgeBaseId,
      sourceOrigin: 'cms',
      replyTo: cleanupId,
      sourceType: 'PAGE',
      lane: 'bulk',
    });
    await ingestion.acceptOne(identity.tenantId, knowledgeBaseId, version(identity.externalId, 'v2'), 'bulk');
    release();
    await temporal.client().workflow.getHandle(ingestWorkflowId(identity)).result();

    const history = await cleanup.fetchHistory();
    for (const event of history.events ?? []) {
      const signal = event.workflowExecutionSignaledEventAttributes;
      if (signal?.signalName === sourceDeletedSignal.name) {
        replies.push(JSON.parse(Buffer.from(signal.input!.payloads![0]!.data!).toString()) as SourceDeletion);
      }
    }
    await cleanup.terminate('test done');
  });

  t.deepEqual(ingested, ['v1', 'v2']);
  t.deepEqual(deleted, []);
  t.deepEqual(replies, [{ sourceKey: 'cms/page-2', externalId: 'page-2', deleted: false }]);
});

test('a re-embed alone is applied in its turn', async (t) => {
  const item = itemOnItsOwnQueues('page-3');
  item.release();
  await item.run(() => item.reembed());
  t.deepEqual(item.calls, [`reembed ${knowledgeBaseId}`]);
});

test('an ingestion waiting beside a re-embed is applied, and makes the re-embed unnecessary', async (t) => {
  const item = itemOnItsOwnQueues('page-4');
  await item.run(async () => {
    await item.send('v1');
    await item.started;
    // A re-embed arrives first, then a newer version: the version is not overtaken, the re-embed is.
    await item.reembed();
    await item.send('v2');
    item.release();
  });
  t.deepEqual(item.calls, ['ingest v1', 'ingest v2']);
});

test('a re-embed follows an unchanged version waiting beside it, once however often it was asked', async (t) => {
  const item = itemOnItsOwnQueues('page-5');
  await item.run(async () => {
    await item.send('v1');
    await item.started;
    // An unchanged version (skipped) leaves the item in the space it was in: the re-embed still runs, after it.
    await item.reembed();
    await item.send('same: v1');
    await item.reembed();
    item.release();
  });
  t.deepEqual(item.calls, ['ingest v1', 'ingest same: v1', `reembed ${knowledgeBaseId}`]);
});

// F5: a metadata-only version that overtakes a waiting full version must not throw the new text
// away (nor fail a new item with not_indexed); after a deletion, it follows it.
test('a metadata-only version is merged into the full version waiting before it', async (t) => {
  const item = itemOnItsOwnQueues('page-7');
  await item.run(async () => {
    await item.send('v1');
    await item.started;
    await item.send('v2');
    await item.sendMetadata({ stock: 3 });
    item.release();
  });
  t.deepEqual(item.calls, ['ingest v1', 'ingest v2 {"stock":3}']);
});

test('a metadata-only version after a waiting delete follows the delete', async (t) => {
  const item = itemOnItsOwnQueues('page-8');
  await item.run(async () => {
    await item.send('v1');
    await item.started;
    await item.ingestion.remove(item.identity, { knowledgeBaseId, sourceOrigin: 'cms', sourceType: 'PAGE', lane: 'bulk' });
    await item.sendMetadata({ stock: 3 });
    item.release();
  });
  t.deepEqual(item.calls, ['ingest v1', 'delete', 'ingest unchanged (metadata only) {"stock":3}']);
});

test('metadata-only versions alone still apply the latest', async (t) => {
  const item = itemOnItsOwnQueues('page-9');
  await item.run(async () => {
    await item.send('v1');
    await item.started;
    await item.sendMetadata({ stock: 2 });
    await item.sendMetadata({ stock: 3 });
    item.release();
  });
  t.deepEqual(item.calls, ['ingest v1', 'ingest unchanged (metadata only) {"stock":3}']);
});

// F17: a hot item's run continues as new, carrying what is pending, rather than growing toward
// Temporal's history limit (which would end it and lose the pending versions).
test('a run that took in 500 signals continues as new, carrying what they come to', async (t) => {
  const item = itemOnItsOwnQueues('page-10');
  const workflowId = ingestWorkflowId(item.identity);
  let firstRunId = '';
  await item.run(async () => {
    await item.send('v1');
    await item.started;
    firstRunId = (await temporal.client().workflow.getHandle(workflowId).describe()).runId;
    await item.send('v2');
    for (let n = 1; n <= 499; n++) await item.sendMetadata({ n });
    item.release();
  });
  t.deepEqual(item.calls, ['ingest v1', 'ingest v2 {"n":499}']);
  const last = await temporal.client().workflow.getHandle(workflowId).describe();
  t.not(last.runId, firstRunId, 'continued as new');
});

test('a delete waiting beside a re-embed is carried out, and makes the re-embed unnecessary', async (t) => {
  const item = itemOnItsOwnQueues('page-6');
  await item.run(async () => {
    await item.send('v1');
    await item.started;
    await item.ingestion.remove(item.identity, { knowledgeBaseId, sourceOrigin: 'cms', sourceType: 'PAGE', lane: 'bulk' });
    await item.reembed();
    item.release();
  });
  t.deepEqual(item.calls, ['ingest v1', 'delete']);
});

// Histories of item workflows recorded before re-embeds existed (versions collapsing; a cleanup's
// delete overtaken, then carried out; a version failing for good): running workflows must replay
// them unchanged, command for command, with the current code.
test('histories recorded before re-embeds existed replay unchanged', async (t) => {
  const folder = new URL('./histories/', import.meta.url);
  const files = readdirSync(folder).filter((file) => file.startsWith('ingest-item-'));
  t.true(files.length >= 3);
  for (const file of files) {
    const history = proto.temporal.api.history.v1.History.fromObject(JSON.parse(readFileSync(new URL(file, folder), 'utf8')));
    await t.notThrowsAsync(Worker.runReplayHistory({ workflowBundle: temporal.bundle() }, history, file), file);
  }
});
