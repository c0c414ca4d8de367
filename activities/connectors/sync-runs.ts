import type { ConnectorActivityDeps } from './deps.js';
import { connectorSyncFailed } from '#outbound-events/facts.js';

export function createSyncRunActivities({
  syncState,
  crawlState,
  connectors,
  outboundEvents,
}: Pick<ConnectorActivityDeps, 'syncState' | 'crawlState' | 'connectors' | 'outboundEvents'>) {
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
      const connector = await connectors.get(connectorId);
      // A crawl's page counts go into the run's summary (its failures list, with its other keys, expires).
      const pages = connector?.kind === 'website' ? await crawlState.counts(connectorId, runId) : undefined;
      await syncState.failRun(connectorId, runId, message, pages);
      // The tenant's event endpoints hear of it (`connector.sync_failed`); a connector removed has no one to tell.
      if (connector && outboundEvents) {
        const { kind, name, knowledgeBaseId } = connector;
        await outboundEvents.emit(
          connector.tenantId,
          connectorSyncFailed({ connectorId, kind, name, knowledgeBaseId, runId, error: message }),
        );
      }
    },
  };
}
