import type { Client } from '@temporalio/client';
import pLimit from 'p-limit';
import { asUnavailable } from '#platform/dependency-errors.js';
import type { JobStore } from './jobs.js';
import { sendItemOperation } from './item-workflow-client.js';
import { jobIdOf, sourceKeyOf } from '#workflows/ids.js';
import type { ItemData, ItemOptions, SourceType } from '#workflows/ingestion/types.js';

/** An ingestion item as the published interface defines it (already validated). */
export interface IngestItemBody {
  integrationId: string;
  knowledgeBaseId?: string;
  sourceType: SourceType;
  externalId: string;
  sourceOrigin?: string;
  data: ItemData;
  options?: ItemOptions;
}

/** Items handed to Temporal at once by one bulk request. */
const acceptConcurrency = 32;

/**
 * Accepting an item: its job is marked `queued`, then its workflow is signalled or started. The
 * answer waits for Temporal to have recorded every item, so an accepted item is never lost, even
 * with no worker running. If Temporal cannot be reached the job's previous status is put back and
 * the request fails with 503; accepted items of a failed bulk are safe to send again.
 */
export function createItemAcceptor(deps: { temporal: Client; jobs: JobStore; taskQueueBase: string }) {
  async function acceptOne(tenantId: string, knowledgeBaseId: string, item: IngestItemBody): Promise<string> {
    const identity = { tenantId, integrationId: item.integrationId, externalId: item.externalId };
    const jobId = jobIdOf(identity);
    const previous = await deps.jobs.snapshot(tenantId, jobId);
    await deps.jobs.set(tenantId, jobId, { status: 'queued', knowledgeBaseId });
    try {
      await sendItemOperation(deps.temporal, {
        taskQueueBase: deps.taskQueueBase,
        identity,
        priority: item.options?.priority ?? 'high',
        sourceType: item.sourceType,
        operation: {
          kind: 'ingest',
          knowledgeBaseId,
          sourceType: item.sourceType,
          sourceOrigin: item.sourceOrigin ?? null,
          data: item.data,
          options: item.options ?? {},
        },
      });
    } catch (error) {
      await deps.jobs.restore(tenantId, jobId, previous).catch(() => undefined);
      throw asUnavailable('temporal', error);
    }
    return jobId;
  }

  return {
    acceptOne,

    /**
     * Accepts items in parallel and returns their job ids in request order. When one pair appears
     * several times only its last version is sent: the latest wins, as it would across requests.
     */
    async acceptMany(tenantId: string, items: Array<{ knowledgeBaseId: string; item: IngestItemBody }>): Promise<string[]> {
      const lastIndexOf = new Map<string, number>();
      items.forEach(({ item }, i) => lastIndexOf.set(sourceKeyOf(item), i));
      const limit = pLimit(acceptConcurrency);
      await Promise.all(
        items.map(({ knowledgeBaseId, item }, i) =>
          lastIndexOf.get(sourceKeyOf(item)) === i ? limit(() => acceptOne(tenantId, knowledgeBaseId, item)) : undefined,
        ),
      );
      return items.map(({ item }) => jobIdOf(item));
    },
  };
}
