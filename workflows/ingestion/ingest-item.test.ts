import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { bundleWorkflows } from '#worker/bundle.js';
import test from 'ava';
import type { Activities } from '#activities/index.js';
import type { JobStatus } from '#knowledge/jobs.js';
import { createIngestionClient, type IngestItem } from '#knowledge/ingestion-client.js';
import { ingestWorkflowId } from '../ids.js';
import { sourceDeletedSignal } from './messages.js';
import type { SourceDeletion } from './types.js';
import { installQuietRuntime } from '#testing/worker.js';

// The workflow's own logic, against the real Temporal server, with activities that only record
// what they were asked (typed as the real ones, so a rename breaks this test at compile time).

let bundle: WorkflowBundleWithSourceMap;
let nativeConnection: NativeConnection;
let connection: Connection;
let client: Client;

test.before(async () => {
  installQuietRuntime();
  const address = process.env.TEMPORAL_ADDRESS ?? '127.0.0.1:7233';
  bundle = await bundleWorkflows();
  nativeConnection = await NativeConnection.connect({ address });
  connection = await Connection.connect({ address });
  client = new Client({ connection });
});

test.after.always(async () => {
  await connection?.close();
  await nativeConnection?.close();
});

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
  createIngestionClient(client, taskQueueBase, {
    snapshot: async () => ({}),
    set: async () => undefined,
    restore: async () => undefined,
  });

/** The activities the ingestion workflows call, typed from the real ones so a rename breaks this test. */
type IngestionActivities = Pick<
  Activities,
  'ingestSource' | 'deleteSource' | 'recordIngestFailure' | 'findOrphanedSources' | 'requestSourceDeletions'
>;

/** Activities that record their calls; the first ingestSource waits until `release()`. */
function recordingActivities() {
  const ingested: string[] = [];
  const deleted: string[] = [];
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let firstStarted!: () => void;
  const started = new Promise<void>((resolve) => (firstStarted = resolve));
  const activities: IngestionActivities = {
    async ingestSource({ operation }): Promise<JobStatus> {
      ingested.push(operation.data.content);
      if (ingested.length === 1) {
        firstStarted();
        await released;
      }
      return 'searchable';
    },
    async deleteSource({ identity }) {
      deleted.push(identity.externalId);
      return true;
    },
    async recordIngestFailure() {},
    async findOrphanedSources() {
      return [];
    },
    async requestSourceDeletions() {},
  };
  return { activities, ingested, deleted, started, release };
}

async function withWorker<T>(taskQueueBase: string, activities: IngestionActivities, body: () => Promise<T>): Promise<T> {
  const worker = await Worker.create({
    connection: nativeConnection,
    taskQueue: `${taskQueueBase}-ingest-high`,
    workflowBundle: bundle,
    activities,
  });
  return worker.runUntil(body);
}

test('versions that arrive while one is processed collapse to the latest', async (t) => {
  const taskQueueBase = `ingest-item-${randomUUID()}`;
  const identity = { tenantId: randomUUID(), integrationId: 'cms', externalId: 'page-1' };
  const { activities, ingested, started, release } = recordingActivities();
  const ingestion = ingestionOn(taskQueueBase);
  const send = (content: string) =>
    ingestion.acceptOne(identity.tenantId, knowledgeBaseId, version(identity.externalId, content));

  await withWorker(taskQueueBase, activities, async () => {
    await send('v1');
    await started;
    for (const content of ['v2', 'v3', 'v4']) await send(content);
    release();
    await client.workflow.getHandle(ingestWorkflowId(identity)).result();
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
    const cleanup = await client.workflow.start('cleanupWorkflow', {
      workflowId: cleanupId,
      taskQueue: `${taskQueueBase}-unpolled`,
      args: [{ tenantId: identity.tenantId, knowledgeBaseId, sourceOrigin: 'cms', keepExternalIds: [] }],
    });
    const ingestion = ingestionOn(taskQueueBase);
    await ingestion.acceptOne(identity.tenantId, knowledgeBaseId, version(identity.externalId, 'v1'));
    await started;
    await ingestion.remove(identity, {
      knowledgeBaseId,
      sourceOrigin: 'cms',
      replyTo: cleanupId,
      sourceType: 'PAGE',
      priority: 'high',
    });
    await ingestion.acceptOne(identity.tenantId, knowledgeBaseId, version(identity.externalId, 'v2'));
    release();
    await client.workflow.getHandle(ingestWorkflowId(identity)).result();

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
