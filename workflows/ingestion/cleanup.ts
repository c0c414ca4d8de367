import { condition, continueAsNew, patched, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '#activities/index.js';
import { sourceDeletedSignal } from './messages.js';
import type { CleanupInput, CleanupResult, CleanupWorkflow, OrphanedSource, SourceDeletion } from './types.js';

const { findOrphanedSources, findOrphanPage, recordDeletedSources, requestSourceDeletions } = proxyActivities<Activities>({
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
  // Since F16 the keep list and what was deleted live in Redis, so input and history stay small.
  // Cleanups started before (with the keep list itself) run as they were recorded.
  if (input.cleanupId !== undefined && patched('cleanup-pages-from-redis'))
    return cleanupByPages({ ...input, cleanupId: input.cleanupId });
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

// The signature its clients are given (`types.ts`).
cleanupWorkflow satisfies CleanupWorkflow;

/**
 * One page of orphans (about `batchSize`, found by the activity after the cursor) per run: each
 * orphan's item workflow is asked to delete it, the replies awaited, the deleted ids appended to the
 * run's list in Redis; then the next run goes on from the page's cursor, carrying only a count.
 */
async function cleanupByPages(input: CleanupInput & { cleanupId: string }): Promise<CleanupResult> {
  const { tenantId, cleanupId } = input;
  const resume = input.resume ?? { cursor: '0', deleted: 0, run: workflowInfo().firstExecutionRunId };
  const page = await findOrphanPage({ ...input, cursor: resume.cursor, limit: batchSize });
  const replies = await deleteAndAwaitReplies(input, page.orphans);
  const deletedIds = replies.filter((reply) => reply.deleted).map((reply) => reply.externalId);
  if (deletedIds.length > 0) await recordDeletedSources({ tenantId, cleanupId, run: resume.run, externalIds: deletedIds });
  const deleted = resume.deleted + deletedIds.length;
  if (page.cursor === undefined) return { deleted, deletedList: resume.run };
  return continueAsNew<typeof cleanupWorkflow>({ ...input, resume: { cursor: page.cursor, deleted, run: resume.run } });
}

/** Asks each source's item workflow to delete it and waits for one reply per source (10 minutes at most). */
async function deleteAndAwaitReplies(input: CleanupInput, sources: OrphanedSource[]): Promise<SourceDeletion[]> {
  if (sources.length === 0) return [];
  const expected = new Set(sources.map((source) => source.sourceKey));
  const replies = new Map<string, SourceDeletion>();
  setHandler(sourceDeletedSignal, (reply) => {
    if (expected.has(reply.sourceKey)) replies.set(reply.sourceKey, reply);
  });
  await requestSourceDeletions({ ...input, sources, replyTo: workflowInfo().workflowId });
  await condition(() => replies.size >= expected.size, '10 minutes');
  return [...replies.values()];
}
