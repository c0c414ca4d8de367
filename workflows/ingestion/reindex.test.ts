import { randomUUID } from 'node:crypto';
import test from 'ava';
import type { Activities } from '#activities/index.js';
import { useWorkflowTestBed } from '#testing/worker.js';
import { reindexWorkflowId } from '../ids.js';
import { reindexProgressQuery } from './messages.js';
import type { reindexKnowledgeBaseWorkflow } from './reindex.js';
import type { SourceToReembed } from './types.js';

// The re-index's own logic, against the real Temporal server, with activities that stand in for a
// knowledge base of many pages (typed as the real ones, so a rename breaks this test at compile time).

const temporal = useWorkflowTestBed(test);

type ReindexActivities = Pick<Activities, 'listSourcesToReembed' | 'countSourcesToReembed' | 'requestReembeds'>;

test('pages through every source, continuing as new with its progress, until none is left', async (t) => {
  const taskQueue = `reindex-${randomUUID()}`;
  const tenantId = randomUUID();
  const knowledgeBaseId = randomUUID();
  // More pages than one run takes; one source in every tenth page.
  const pages = 250;
  const sourceOf = (page: number): SourceToReembed[] =>
    page % 10 === 0 ? [{ sourceKey: `cms/${page}`, integrationId: 'cms', externalId: String(page), sourceType: 'PAGE' }] : [];
  const requested: string[] = [];
  let counts = 0;
  const activities: ReindexActivities = {
    async listSourcesToReembed({ cursor }) {
      const page = Number(cursor ?? 0);
      return page + 1 < pages ? { sources: sourceOf(page), cursor: String(page + 1) } : { sources: sourceOf(page) };
    },
    async requestReembeds({ sources }) {
      requested.push(...sources.map((source) => source.externalId));
    },
    // The first count (at the start) finds them all; by the next one they have been re-embedded.
    async countSourcesToReembed() {
      return counts++ === 0 ? pages / 10 : 0;
    },
  };
  const worker = await temporal.worker(taskQueue, activities);

  const workflowId = reindexWorkflowId(tenantId, knowledgeBaseId);
  await worker.runUntil(async () => {
    const handle = await temporal.client().workflow.start<typeof reindexKnowledgeBaseWorkflow>('reindexKnowledgeBaseWorkflow', {
      workflowId,
      taskQueue,
      args: [{ tenantId, knowledgeBaseId }],
    });
    const result = await handle.result();
    t.like(result, { state: 'completed', total: 25, sent: 25, remaining: 0 });

    const latest = temporal.client().workflow.getHandle(workflowId);
    const description = await latest.describe();
    t.not(description.runId, handle.firstExecutionRunId, 'continued as new');
    t.deepEqual(description.memo?.progress, result);
    t.deepEqual(await latest.query(reindexProgressQuery), result);
  });
  t.deepEqual(
    requested,
    Array.from({ length: 25 }, (_, i) => String(i * 10)),
  );
});

test('a knowledge base with nothing in another space completes at once', async (t) => {
  const taskQueue = `reindex-${randomUUID()}`;
  const activities: ReindexActivities = {
    listSourcesToReembed: async () => t.fail('nothing to list') as never,
    requestReembeds: async () => t.fail('nothing to send') as never,
    countSourcesToReembed: async () => 0,
  };
  const worker = await temporal.worker(taskQueue, activities);
  const result = await worker.runUntil(
    temporal.client().workflow.execute<typeof reindexKnowledgeBaseWorkflow>('reindexKnowledgeBaseWorkflow', {
      workflowId: reindexWorkflowId(randomUUID(), randomUUID()),
      taskQueue,
      args: [{ tenantId: randomUUID(), knowledgeBaseId: randomUUID() }],
    }),
  );
  t.like(result, { state: 'completed', total: 0, sent: 0, remaining: 0 });
  t.regex(result.completedAt!, /Z$/);
});
