import type { ConnectorActivityDeps } from './deps.js';
import { connectorSyncFailed } from '#outbound-events/facts.js';

export function createSyncRunActivities({
  syncState,
  connectors,
  outboundEvents,
}: Pick<ConnectorActivityDeps, 'syncState' | 'connectors' | 'outboundEvents'>) {
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
      // The tenant's event endpoints hear of it (`connector.sync_failed`); a connector removed has no one to tell.
      const connector = outboundEvents ? await connectors.get(connectorId) : undefined;
      if (connector) {
        const { kind, name, knowledgeBaseId } = connector;
        await outboundEvents!.emit(
          connector.tenantId,
          connectorSyncFailed({ connectorId, kind, name, knowledgeBaseId, runId, error: message }),
        );
      }
    },
  };
}
