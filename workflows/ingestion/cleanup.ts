import { condition, continueAsNew, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '#activities/index.js';
import { sourceDeletedSignal } from './messages.js';
import type { CleanupInput, CleanupResult, SourceDeletion } from './types.js';

const { findOrphanedSources, requestSourceDeletions } = proxyActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds' },
});

/** Orphans handled per run; a larger cleanup continues as new, so its history stays small. */
const batchSize = 500;

/**
 * Deletes the knowledge base's sources of exactly one origin whose external ids are not kept. Each
 * deletion goes through the item's own workflow, so it is applied in turn with any ingestion of the
 * same item: running a cleanup twice, or during an import of that origin, leaves no half-deleted item.
 */
export async function cleanupWorkflow(input: CleanupInput): Promise<CleanupResult> {
  const deletedSoFar = input.deletedSoFar ?? [];
  const orphans = await findOrphanedSources(input);
  const batch = orphans.slice(0, batchSize);
  if (batch.length === 0) return { deleted: deletedSoFar.length, orphanedExternalIds: deletedSoFar };

  const replies: SourceDeletion[] = [];
  setHandler(sourceDeletedSignal, (reply) => {
    replies.push(reply);
  });
  await requestSourceDeletions({ ...input, sources: batch, replyTo: workflowInfo().workflowId });
  // An item workflow that never answers must not hold the caller forever.
  await condition(() => replies.length >= batch.length, '10 minutes');

  const deleted = [...deletedSoFar, ...replies.filter((reply) => reply.deleted).map((reply) => reply.externalId)];
  if (orphans.length > batch.length) return continueAsNew<typeof cleanupWorkflow>({ ...input, deletedSoFar: deleted });
  return { deleted: deleted.length, orphanedExternalIds: deleted };
}
