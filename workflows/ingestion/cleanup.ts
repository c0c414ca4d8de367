import { condition, continueAsNew, patched, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
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

  // One reply per source of this batch: a retried request makes an item reply twice, and a reply
  // the previous run waited for may arrive late. Runs recorded before this counted every reply.
  const expected = new Set(batch.map((source) => source.sourceKey));
  const countsEachSourceOnce = patched('cleanup-replies-once-per-source');
  const replies = new Map<string, SourceDeletion>();
  let received = 0;
  setHandler(sourceDeletedSignal, (reply) => {
    if (!countsEachSourceOnce) replies.set(String(received), reply);
    else if (expected.has(reply.sourceKey)) replies.set(reply.sourceKey, reply);
    received++;
  });
  await requestSourceDeletions({ ...input, sources: batch, replyTo: workflowInfo().workflowId });
  // An item workflow that never answers must not hold the caller forever.
  await condition(() => replies.size >= batch.length, '10 minutes');

  const deleted = [...deletedSoFar, ...[...replies.values()].filter((reply) => reply.deleted).map((reply) => reply.externalId)];
  if (orphans.length > batch.length) return continueAsNew<typeof cleanupWorkflow>({ ...input, deletedSoFar: deleted });
  return { deleted: deleted.length, orphanedExternalIds: deleted };
}
