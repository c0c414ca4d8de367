import { connectorSyncFinished } from '#outbound-events/facts.js';
import type { SyncOutcome } from '#workflows/connectors/types.js';
import type { ConnectorActivityDeps } from './deps.js';

/**
 * Tells the tenant's event endpoints of a run that finished (`connector.sync_finished`), after it was
 * recorded; a finish retried tells again with the same event id, which deliveries deduplicate. A
 * connector removed meanwhile has no one to tell.
 */
export function createRunAnnouncements({
  connectors,
  outboundEvents,
}: Pick<ConnectorActivityDeps, 'connectors' | 'outboundEvents'>) {
  return {
    async finished<T extends SyncOutcome>(connectorId: string, outcome: T & { pages?: Record<string, unknown> }): Promise<T> {
      const connector = outboundEvents ? await connectors.get(connectorId) : undefined;
      if (connector && outboundEvents) {
        const { kind, name, knowledgeBaseId, tenantId } = connector;
        await outboundEvents.emit(tenantId, connectorSyncFinished({ connectorId, kind, name, knowledgeBaseId, ...outcome }));
      }
      return outcome;
    },
  };
}
