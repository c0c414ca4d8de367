/** Where the built-in connectors keep their records and sync state in Redis, under the deployment's prefix. */
export function connectorKeys(prefix: string) {
  return {
    /** A connector's record (a hash); its secrets only sealed. */
    connector: (connectorId: string) => `${prefix}:connector:${connectorId}`,
    /** A tenant's connectors by creation time (sorted set). */
    ofTenant: (tenantId: string) => `${prefix}:tenant:${tenantId}:connectors`,
    /** The random path a shop's webhooks are delivered to, to the connector's id. */
    byWebhookPath: (webhookPath: string) => `${prefix}:connector-by-webhook-path:${webhookPath}`,
    /** The current run and the last finished one (a hash). */
    syncState: (connectorId: string) => `${prefix}:connector:${connectorId}:sync`,
    /** External ids a run has sent so far (a set): the ids its cleanup keeps. */
    seen: (connectorId: string, runId: string) => `${prefix}:connector:${connectorId}:run:${runId}:seen`,
    /** External ids the last full sync kept, and the incremental ones since (a set). */
    known: (connectorId: string) => `${prefix}:connector:${connectorId}:known`,
    /** What was last sent of each item: `contentHash:metadataHash` by external id (a hash). */
    fingerprints: (connectorId: string) => `${prefix}:connector:${connectorId}:fingerprints`,
  };
}
