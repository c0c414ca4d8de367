import type { Tenancy } from '#tenancy/index.js';
import type { Connector, ConnectorRecords, NewConnector } from './records.js';
import type { ConnectorSchedules } from './schedules.js';

/** What a connector is made from, less its key and secrets (which `connect` adds). */
export type ConnectorSettings = {
  [Kind in NewConnector['kind']]: Omit<Extract<NewConnector, { kind: Kind }>, 'apiKeyId' | 'secrets'>;
}[NewConnector['kind']];

export interface ConnectorSetupDeps {
  tenancy: Pick<Tenancy, 'createApiKey' | 'getApiKey' | 'deactivateApiKey'>;
  connectors: Pick<ConnectorRecords, 'create' | 'remove' | 'countForTenant'>;
  schedules: Pick<ConnectorSchedules, 'create' | 'remove'>;
  /** Connectors a tenant may have (CONNECTORS_PER_TENANT). */
  maxPerTenant: number;
}

/**
 * The tenant has as many connectors as it may: each one polls a source on the tenant's behalf, so
 * their number is bounded (with the minimum sync interval, that bounds the requests the service makes).
 */
export class ConnectorLimitError extends Error {
  constructor(readonly maxPerTenant: number) {
    super(`This tenant has ${maxPerTenant} connectors, the most it may have: remove one before connecting another source.`);
    this.name = 'ConnectorLimitError';
  }
}

/**
 * Setting a connector up and taking it down. A connector is three things: an API key of its own
 * (it ingests through the public API like any client), its record with the secrets sealed, and its
 * schedule in Temporal.
 */
export function createConnectorSetup({ tenancy, connectors, schedules, maxPerTenant }: ConnectorSetupDeps) {
  return {
    /**
     * Mints the connector's key, stores the connector, and starts its schedule; undoes the first two if
     * the last fails. A tenant at its limit gets a ConnectorLimitError and nothing is made. (Two requests
     * racing at the limit may both pass: the count bounds a tenant's connectors, it is not a lock.)
     */
    async connect(
      tenantId: string,
      settings: ConnectorSettings,
      secrets: Omit<NewConnector['secrets'], 'ingestionKey'>,
    ): Promise<Connector> {
      if ((await connectors.countForTenant(tenantId)) >= maxPerTenant) throw new ConnectorLimitError(maxPerTenant);
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
