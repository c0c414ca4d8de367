import type { Connector, ConnectorRecords, ConnectorSecrets } from './records.js';
import { ConnectorGoneError } from './sync-failures.js';

/** A connector of `kind`; ConnectorGoneError when it was removed (or is of another kind). */
export async function connectorOf<Kind extends Connector['kind']>(
  connectors: Pick<ConnectorRecords, 'get'>,
  connectorId: string,
  kind: Kind,
): Promise<Extract<Connector, { kind: Kind }>> {
  const connector = await connectors.get(connectorId);
  if (connector?.kind !== kind) throw new ConnectorGoneError(connectorId);
  return connector as Extract<Connector, { kind: Kind }>;
}

/** A connector of `kind` with its secrets opened (see `connectorOf`). */
export async function openConnector<Kind extends Connector['kind']>(
  connectors: Pick<ConnectorRecords, 'get' | 'secretsOf'>,
  connectorId: string,
  kind: Kind,
): Promise<{ connector: Extract<Connector, { kind: Kind }>; secrets: ConnectorSecrets }> {
  const connector = await connectorOf(connectors, connectorId, kind);
  return { connector, secrets: await connectors.secretsOf(connector) };
}
