import type { IngestionClient } from '#connector-sdk/index.js';
import type { SyncOutcome } from '#workflows/connectors/types.js';
import type { Connector } from './records.js';
import { EmptySourceError } from './sync-failures.js';
import type { SyncState, SyncSummary } from './sync-state.js';

/**
 * Ends a full sync: asks the ingestion API to delete the items of the connector's origin that the run
 * did not see, then records the run. A run that saw nothing while the last one kept items is refused:
 * an empty answer is far more often a broken source (a revoked token that still answers 200, a
 * filter gone wrong) than an emptied catalogue, and cleanup would delete everything.
 */
export async function finishFullRun(options: {
  client: Pick<IngestionClient, 'cleanup'>;
  state: SyncState;
  connector: Pick<Connector, 'id' | 'integrationId' | 'knowledgeBaseId'>;
  runId: string;
  /** Kept in the run's summary beside its counts (a crawl's page counts). */
  extra?: Pick<SyncSummary, 'pages'>;
}): Promise<SyncOutcome> {
  const { client, state, connector, runId } = options;
  const finished = await state.finished(connector.id, runId);
  if (finished) return outcomeOf(finished);
  const keep = await state.seen(connector.id, runId);
  if (keep.length === 0 && (await state.known(connector.id)).length > 0) {
    throw new EmptySourceError();
  }
  const cleanup = await client.cleanup({
    knowledgeBaseId: connector.knowledgeBaseId,
    sourceOrigin: connector.integrationId,
    keepExternalIds: keep,
  });
  await state.forget(connector.id, cleanup.orphanedExternalIds);
  return outcomeOf(await state.finishRun(connector.id, runId, { ...options.extra, deleted: cleanup.deleted, keep }));
}

/** What a sync workflow returns (and the Temporal UI shows) of its run's summary. */
export function outcomeOf({ runId, mode, sent, unchanged, deleted }: SyncSummary): SyncOutcome {
  return { runId, mode, sent, unchanged, deleted };
}
