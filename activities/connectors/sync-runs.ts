import type { IngestionClient } from '#connector-sdk/index.js';
import type { Connector } from '#connectors/records.js';
import type { SyncState } from '#connectors/sync-state.js';
import type { SyncOutcome } from '#workflows/connectors/types.js';
import type { ConnectorActivityDeps } from './deps.js';
import { EmptySourceError } from './failures.js';

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
}): Promise<SyncOutcome> {
  const { client, state, connector, runId } = options;
  const finished = await state.finished(connector.id, runId);
  if (finished) return { runId, mode: finished.mode, sent: finished.sent, deleted: finished.deleted };
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
  const summary = await state.finishRun(connector.id, runId, { deleted: cleanup.deleted, keep });
  return { runId, mode: summary.mode, sent: summary.sent, deleted: summary.deleted };
}

export function createSyncRunActivities({ syncState }: Pick<ConnectorActivityDeps, 'syncState'>) {
  return {
    /** Records why a run ended early; its partial list of ids is dropped, so nothing was cleaned up. */
    async failConnectorSync({
      connectorId,
      runId,
      message,
    }: {
      connectorId: string;
      runId: string;
      message: string;
    }): Promise<void> {
      await syncState.failRun(connectorId, runId, message);
    },
  };
}
