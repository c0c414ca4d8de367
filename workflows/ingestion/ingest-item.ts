import {
  ActivityFailure,
  TimeoutFailure,
  condition,
  continueAsNew,
  getExternalWorkflowHandle,
  patched,
  proxyActivities,
  setHandler,
  upsertSearchAttributes,
  uuid4,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '#activities/index.js';
import type { ItemIdentity } from '../ids.js';
import { sourceKeyOf } from '../ids.js';
import { knowledgeBaseIdKey, sourceTypeKey } from '../search-attributes.js';
import { itemOperationSignal, sourceDeletedSignal } from './messages.js';
import { ingestPriorityKeys, taskPriority } from './task-queues.js';
import type { DeleteOperation, IngestItemWorkflow, IngestOperation, ItemOperation, ReembedOperation } from './types.js';

// One activity does the whole of a version (normalize, chunk, embed, index): every history event
// is a write, so the workflow stays as lean as one activity. Transient failures (Weaviate or the
// embedder down) are retried without end; bad data fails at once (non-retryable from the activity).
// The activities heartbeat every few seconds: an attempt whose worker went away is retried after
// the heartbeat timeout, not the start-to-close one.
const itemActivityOptions = {
  startToCloseTimeout: '10 minutes',
  heartbeatTimeout: '30 seconds',
  scheduleToCloseTimeout: '7 days',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
} as const;

const { recordIngestFailure } = proxyActivities<Activities>({ startToCloseTimeout: '1 minute' });

/**
 * The activities of one operation, at its priority: a person's change goes before every import's
 * waiting work whatever the run started with (`task-queues.ts`). Only a person's change may be handed
 * to this worker's free slot at once (eager dispatch): an import's goes through Temporal's matcher,
 * where priorities and tenants' turns are decided, or the imports' workflow tasks, completing all the
 * time, would take every slot that frees before a waiting person's change could. A replay does not
 * compare either with the history, so runs recorded before replay unchanged (`replay.test.ts`), and
 * no patch marker (two more history events per item) is needed.
 */
function itemActivities(identity: ItemIdentity, operation: ItemOperation) {
  const priority = taskPriority(identity.tenantId, operation);
  return proxyActivities<Activities>({
    ...itemActivityOptions,
    priority,
    allowEagerDispatch: priority.priorityKey === ingestPriorityKeys.interactive,
  });
}

/**
 * The one workflow of an item (per tenant and `integrationId-externalId`): every change of the item
 * arrives as a signal (signal-with-start), and changes are applied one at a time, the latest winning
 * (a metadata-only version applies on top of the one before it), so two submissions never race. A
 * re-index's request to embed the item again takes its turn too, but never wins over an ingestion or
 * deletion waiting beside it: those are applied first, and the re-embed after them, unless they
 * wrote the item in the current space or deleted it. It ends when nothing is left to do; the next
 * signal starts it anew. A run that has taken in 500 signals, or whose history Temporal finds long,
 * continues as new with what is pending.
 */
export async function ingestItemWorkflow(identity: ItemIdentity, carried: ItemOperation[] = []): Promise<void> {
  const pending: ItemOperation[] = [...carried];
  let received = 0;
  setHandler(itemOperationSignal, (operation) => {
    pending.push(operation);
    received++;
  });

  await condition(() => pending.length > 0);
  while (pending.length > 0) {
    const operations = pending.splice(0);
    const changes = operations.filter((operation): operation is Change => operation.kind !== 'reembed');
    const reembeds = operations.filter((operation): operation is ReembedOperation => operation.kind === 'reembed');
    const toApply = changes.length > 0 ? await answerOvertaken(identity, changes) : [];
    // A hot item (signals arriving all the time) would grow one run's history toward Temporal's
    // limit, which terminates the run and loses what is pending: it goes on as a new run, carrying
    // only what its operations come to (at most two changes and a re-embed per knowledge base).
    if ((received >= operationsPerRun || workflowInfo().continueAsNewSuggested) && patched('item-continues-as-new')) {
      const reembedsByKnowledgeBase = new Map(reembeds.map((operation) => [operation.knowledgeBaseId, operation]));
      return continueAsNew<typeof ingestItemWorkflow>(identity, [...toApply, ...reembedsByKnowledgeBase.values()]);
    }
    let settled = false;
    for (const change of toApply) settled = await applyChange(identity, change);
    if (reembeds.length > 0 && !settled) await reembedVersion(identity, reembeds);
  }
}

// The signature its clients are given (`types.ts`).
ingestItemWorkflow satisfies IngestItemWorkflow;

/** Signals one run takes in before it continues as new (each carries up to about 1 MiB). */
const operationsPerRun = 500;

type Change = IngestOperation | DeleteOperation;
type JobStatus = Awaited<ReturnType<Activities['ingestSource']>>;

/**
 * What the changes come to (see `collapse`), once every cleanup's delete request that a newer
 * change overtook is answered as not carried out.
 */
async function answerOvertaken(identity: ItemIdentity, changes: Change[]): Promise<Change[]> {
  const toApply = collapse(changes);
  for (const overtaken of changes) {
    if (overtaken.kind === 'delete' && !toApply.includes(overtaken)) await replyToCleanup(identity, overtaken, false);
  }
  return toApply;
}

/**
 * The latest change wins, except a metadata-only version (new `url`, `metadata` and `sourceData`,
 * no new text): it applies on top of the change before it, so nothing a client was told is queued
 * is lost. On a full version still waiting it is merged into it (that version, with the newer
 * fields); after a deletion it follows it. Histories recorded before this applied the latest alone.
 */
function collapse(changes: Change[]): Change[] {
  const latest = changes.at(-1)!;
  if (latest.kind !== 'ingest' || !latest.options.metadataOnly) return [latest];
  const base = changes.findLast((change) => change.kind === 'delete' || !change.options.metadataOnly);
  if (!base || !patched('metadata-only-applies-on-top')) return [latest];
  if (base.kind === 'delete') return [base, latest];
  const { url, metadata, sourceData } = latest.data;
  // The job was accepted last for the metadata-only version: the merged version writes as it.
  return [{ ...base, jobGeneration: latest.jobGeneration, data: { ...base.data, url, metadata, sourceData } }];
}

/** True when the change left nothing to re-embed: a version written (in the current space), or the item deleted. */
async function applyChange(identity: ItemIdentity, change: Change): Promise<boolean> {
  if (change.kind === 'ingest') return (await ingestVersion(identity, change)) === 'searchable';
  const deleted = await itemActivities(identity, change).deleteSource({
    identity,
    knowledgeBaseId: change.knowledgeBaseId,
    sourceOrigin: change.sourceOrigin,
  });
  await replyToCleanup(identity, change, deleted);
  return deleted;
}

/** The item's status once the version is applied; undefined when it failed. */
async function ingestVersion(identity: ItemIdentity, operation: IngestOperation): Promise<JobStatus | undefined> {
  keepSearchAttributesCurrent(operation);
  try {
    // The generation names this version's chunks; it is the same on every retry of the activity.
    return await itemActivities(identity, operation).ingestSource({ identity, operation, generation: uuid4() });
  } catch (error) {
    if (!(error instanceof ActivityFailure)) throw error;
    // A version that failed for good must not end the workflow: newer versions may be waiting.
    // The activity records bad data itself; days of transient failures end in a timeout, recorded here.
    if (error.cause instanceof TimeoutFailure) {
      await recordIngestFailure({
        identity,
        knowledgeBaseId: operation.knowledgeBaseId,
        jobGeneration: operation.jobGeneration,
        error: { code: 'processing_timeout', message: 'The item could not be processed within 7 days; send it again.' },
      });
    }
    return undefined;
  }
}

/**
 * Embeds the item's current version again, once per knowledge base asked (the activity does nothing
 * where the item is not, or is already in the current space). The item stays searchable throughout,
 * so its job status is left alone; one that cannot be re-embedded stays where it is, and the re-index
 * counts it as remaining.
 */
async function reembedVersion(identity: ItemIdentity, reembeds: ReembedOperation[]): Promise<void> {
  for (const knowledgeBaseId of new Set(reembeds.map((operation) => operation.knowledgeBaseId))) {
    try {
      await itemActivities(identity, reembeds[0]!).reembedSource({ identity, knowledgeBaseId, generation: uuid4() });
    } catch (error) {
      if (!(error instanceof ActivityFailure)) throw error;
    }
  }
}

function keepSearchAttributesCurrent(operation: IngestOperation): void {
  const attributes = workflowInfo().typedSearchAttributes;
  if (attributes.get(knowledgeBaseIdKey) === operation.knowledgeBaseId && attributes.get(sourceTypeKey) === operation.sourceType)
    return;
  upsertSearchAttributes([
    { key: knowledgeBaseIdKey, value: operation.knowledgeBaseId },
    { key: sourceTypeKey, value: operation.sourceType },
  ]);
}

async function replyToCleanup(identity: ItemIdentity, operation: DeleteOperation, deleted: boolean): Promise<void> {
  if (!operation.replyTo) return;
  try {
    await getExternalWorkflowHandle(operation.replyTo).signal(sourceDeletedSignal, {
      sourceKey: sourceKeyOf(identity),
      externalId: identity.externalId,
      deleted,
    });
  } catch {
    // The cleanup gave up waiting and ended: the deletion stands, there is no one left to tell.
  }
}
