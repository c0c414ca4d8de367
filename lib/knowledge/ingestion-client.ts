import type { Client } from '@temporalio/client';
import pLimit from 'p-limit';
import { tagUnavailable } from '#platform/dependency-errors.js';
import { ingestWorkflowId, jobIdOf, sourceKeyOf, type ItemIdentity } from '#workflows/ids.js';
import { itemOperationSignal } from '#workflows/ingestion/messages.js';
import { ingestTaskQueue, taskPriority } from '#workflows/ingestion/task-queues.js';
import type {
  DeleteOperation,
  IngestItemWorkflow,
  IngestLane,
  ItemData,
  ItemOperation,
  ItemOptions,
  ReembedOperation,
  SourceType,
} from '#workflows/ingestion/types.js';
import { integrationIdKey, knowledgeBaseIdKey, sourceTypeKey, tenantIdKey } from '#workflows/search-attributes.js';
import type { JobStore } from './jobs.js';

/** An ingestion item as the published interface defines it (already validated). */
export interface IngestItem {
  integrationId: string;
  knowledgeBaseId?: string;
  sourceType: SourceType;
  externalId: string;
  sourceOrigin?: string;
  data: ItemData;
  options?: ItemOptions;
}

/** A removal: the item's knowledge base and origin, whose it is, and who (if anyone) waits for the answer. */
export type Removal = Omit<DeleteOperation, 'kind' | 'lane'> & { sourceType: string; lane: IngestLane };

/** A re-index's request: the item's knowledge base, and what its workflow is started with when none runs. */
export type Reembed = Omit<ReembedOperation, 'kind'> & { sourceType: string };

/**
 * The lane of an item sent on its own: a person's change, unless its sender said it is background
 * work (`priority: low`). Items of a bulk call are an import's whatever their priority.
 */
export function laneOfSingleItem(item: Pick<IngestItem, 'options'>): IngestLane {
  return item.options?.priority === 'low' ? 'bulk' : 'interactive';
}

/** Items handed to Temporal at once by one bulk request. */
const acceptConcurrency = 32;

/**
 * The ingestion side of Temporal, for everyone who changes a knowledge base: the ingest routes, the
 * help centre's article feed, and the cleanup and re-index activities. Every change of an item goes to the item's
 * own workflow (cleanups: `cleanup-client.ts`). Each call resolves once Temporal has
 * durably recorded it (no worker needs to be running); a Temporal that cannot be reached fails it
 * with a DependencyUnavailableError.
 */
export function createIngestionClient(
  temporal: Client,
  taskQueueBase: string,
  jobs: Pick<JobStore, 'accept' | 'restore' | 'queued'>,
) {
  /**
   * Hands an operation to the item's workflow: signals it while it runs, otherwise starts it with the
   * signal (one call, so no operation can fall between a finished run and a new one).
   */
  async function send(identity: ItemIdentity, operation: ItemOperation, options: { sourceType: string }) {
    await temporal.workflow.signalWithStart<IngestItemWorkflow, [ItemOperation]>('ingestItemWorkflow', {
      workflowId: ingestWorkflowId(identity),
      taskQueue: ingestTaskQueue(taskQueueBase),
      // A workflow already running keeps the priority it started with; its activities take each operation's own.
      priority: taskPriority(identity.tenantId, operation),
      args: [identity],
      signal: itemOperationSignal,
      signalArgs: [operation],
      typedSearchAttributes: [
        { key: tenantIdKey, value: identity.tenantId },
        { key: knowledgeBaseIdKey, value: operation.knowledgeBaseId },
        { key: integrationIdKey, value: identity.integrationId },
        { key: sourceTypeKey, value: options.sourceType },
      ],
    });
  }

  /**
   * Accepting an item: its job is marked `queued` under a new generation, which travels with the
   * version to its activity (an older version still in flight can no longer write its status), then
   * its workflow is signalled or started. If Temporal cannot be reached the job's previous status is
   * put back, unless the version already wrote one, so the caller may simply send the item again.
   */
  async function acceptOne(tenantId: string, knowledgeBaseId: string, item: IngestItem, lane: IngestLane): Promise<string> {
    const identity = { tenantId, integrationId: item.integrationId, externalId: item.externalId };
    const jobId = jobIdOf(identity);
    const accepted = await jobs.accept(tenantId, jobId, knowledgeBaseId);
    const operation = {
      kind: 'ingest',
      knowledgeBaseId,
      sourceType: item.sourceType,
      sourceOrigin: item.sourceOrigin ?? null,
      data: item.data,
      options: item.options ?? {},
      lane,
      jobGeneration: accepted.generation,
    } as const;
    try {
      await send(identity, operation, { sourceType: item.sourceType });
    } catch (error) {
      await jobs.restore(tenantId, jobId, accepted).catch(() => undefined);
      throw error;
    }
    jobs.queued();
    return jobId;
  }

  return tagUnavailable('temporal', {
    acceptOne,

    /**
     * Accepts items in parallel and returns their job ids in request order. A pair that appears
     * several times has each occurrence sent, one after another in request order, so the item's
     * workflow applies them as if they had come in separate requests: a metadata-only change after a
     * full version lands on that version's text. Accepted items of a failed call are safe to send again.
     */
    async acceptMany(tenantId: string, items: Array<{ knowledgeBaseId: string; item: IngestItem }>): Promise<string[]> {
      const occurrences = new Map<string, Array<{ knowledgeBaseId: string; item: IngestItem }>>();
      for (const entry of items)
        occurrences.set(sourceKeyOf(entry.item), [...(occurrences.get(sourceKeyOf(entry.item)) ?? []), entry]);
      const limit = pLimit(acceptConcurrency);
      await Promise.all(
        [...occurrences.values()].map((inOrder) =>
          limit(async () => {
            for (const { knowledgeBaseId, item } of inOrder) await acceptOne(tenantId, knowledgeBaseId, item, 'bulk');
          }),
        ),
      );
      return items.map(({ item }) => jobIdOf(item));
    },

    /** Asks the item's workflow to delete it (starting the workflow when none runs); removing twice is harmless. */
    async remove(identity: ItemIdentity, { sourceType, ...removal }: Removal): Promise<void> {
      await send(identity, { kind: 'delete', ...removal }, { sourceType });
    },

    /**
     * Asks the item's workflow to embed its current version again in the current embedding space
     * (starting the workflow when none runs); it takes its turn after the item's other operations.
     */
    async reembed(identity: ItemIdentity, { sourceType, knowledgeBaseId }: Reembed): Promise<void> {
      await send(identity, { kind: 'reembed', knowledgeBaseId }, { sourceType });
    },
  });
}

export type IngestionClient = ReturnType<typeof createIngestionClient>;
