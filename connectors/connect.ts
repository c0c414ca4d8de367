import type { Tenancy } from '#tenancy/index.js';
import type { Connector, ConnectorRecords, NewConnector } from './records.js';
import type { ConnectorSchedules } from './schedules.js';

/** What a connector is made from, less its key and secrets (which `connect` adds). */
export type ConnectorSettings = {
  [Kind in NewConnector['kind']]: Omit<Extract<NewConnector, { kind: Kind }>, 'apiKeyId' | 'secrets'>;
}[NewConnector['kind']];

export interface ConnectorSetupDeps {
  tenancy: Pick<Tenancy, 'createApiKey' | 'getApiKey' | 'deactivateApiKey'>;
  connectors: Pick<ConnectorRecords, 'create' | 'remove'>;
  schedules: Pick<ConnectorSchedules, 'create' | 'remove'>;
}

/**
 * Setting a connector up and taking it down. A connector is three things: an API key of its own
 * (it ingests through the public API like any client), its record with the secrets sealed, and its
 * schedule in Temporal.
 */
export function createConnectorSetup({ tenancy, connectors, schedules }: ConnectorSetupDeps) {
  return {
    /** Mints the connector's key, stores the connector, and starts its schedule; undoes the first two if the last fails. */
    async connect(
      tenantId: string,
      settings: ConnectorSettings,
      secrets: Omit<NewConnector['secrets'], 'ingestionKey'>,
    ): Promise<Connector> {
      const { apiKey, secret } = await tenancy.createApiKey(tenantId, {
        name: `${settings.kind} connector: ${settings.name}`,
        scopes: ['iq:import'],
      });
      const connector = await connectors.create(tenantId, {
        ...settings,
        apiKeyId: apiKey.id,
        secrets: { ...secrets, ingestionKey: secret },
      });
      try {
        await schedules.create(connector);
      } catch (error) {
        await Promise.allSettled([connectors.remove(connector), tenancy.deactivateApiKey(apiKey)]);
        throw error;
      }
      return connector;
    },

    /** Stops its schedule and any sync running, revokes its key, and forgets it with its secrets. */
    async disconnect(connector: Connector): Promise<void> {
      await schedules.remove(connector);
      const apiKey = await tenancy.getApiKey(connector.apiKeyId);
      if (apiKey?.active) await tenancy.deactivateApiKey(apiKey);
      await connectors.remove(connector);
    },
  };
}

export type ConnectorSetup = ReturnType<typeof createConnectorSetup>;
