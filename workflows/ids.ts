/**
 * Business-keyed identifiers, pure and deterministic, shared by the API, the workflows and the
 * activities.
 */

export interface ItemIdentity {
  tenantId: string;
  integrationId: string;
  externalId: string;
}

/** The job identifier of the published interface: the pair joined by a hyphen. */
export function jobIdOf({ integrationId, externalId }: Pick<ItemIdentity, 'integrationId' | 'externalId'>): string {
  return `${integrationId}-${externalId}`;
}

/**
 * An unambiguous key for the pair within a tenant ("a-b" + "c" and "a" + "b-c" share a job id but
 * not a source key): each part URI-encoded, so the one `/` separates them.
 */
export function sourceKeyOf({ integrationId, externalId }: Pick<ItemIdentity, 'integrationId' | 'externalId'>): string {
  return `${encodeURIComponent(integrationId)}/${encodeURIComponent(externalId)}`;
}

export function parseSourceKey(sourceKey: string): { integrationId: string; externalId: string } {
  const [integrationId = '', externalId = ''] = sourceKey.split('/');
  return { integrationId: decodeURIComponent(integrationId), externalId: decodeURIComponent(externalId) };
}

/** One workflow per item, per tenant: every change of the item goes through it, one at a time. */
export function ingestWorkflowId(identity: ItemIdentity): string {
  return `ingest/${identity.tenantId}/${sourceKeyOf(identity)}`;
}

export function cleanupWorkflowId(tenantId: string, cleanupId: string): string {
  return `cleanup/${tenantId}/${cleanupId}`;
}

/** One re-index per knowledge base at a time: starting it again while it runs finds the running one. */
export function reindexWorkflowId(tenantId: string, knowledgeBaseId: string): string {
  return `reindex/${tenantId}/${knowledgeBaseId}`;
}

/** One workflow per conversation, per tenant. */
export function conversationWorkflowId(tenantId: string, conversationId: string): string {
  return `conversation/${tenantId}/${conversationId}`;
}

/** A connector's schedule, and the prefix of the sync workflows it starts (the schedule adds the time). */
export function connectorScheduleId(tenantId: string, connectorId: string): string {
  return `connector/${tenantId}/${connectorId}`;
}

/** One workflow per webhook delivery: a redelivery finds it and starts nothing. */
export function shopProductWorkflowId(tenantId: string, connectorId: string, productId: string, deliveryId: string): string {
  return `connector/${tenantId}/${connectorId}/product/${productId}/${deliveryId}`;
}

/** One delivery sequencer per event endpoint: every event for it goes through it, in order. */
export function eventEndpointWorkflowId(tenantId: string, endpointId: string): string {
  return `event-endpoint/${tenantId}/${endpointId}`;
}

/** One delivery workflow per endpoint and event: an event emitted twice finds it and starts nothing. */
export function eventDeliveryWorkflowId(tenantId: string, endpointId: string, eventId: string): string {
  return `${eventEndpointWorkflowId(tenantId, endpointId)}/${eventId}`;
}

/** One content-gaps clustering per operator: every recorded gap signals it (docs/insights.md). */
export function contentGapsWorkflowId(tenantId: string, operatorId: string): string {
  return `content-gaps/${tenantId}/${operatorId}`;
}

/** The workflow that takes an uploaded file's changes into its knowledge base, one at a time: one per file. */
export function uploadedFileWorkflowId(tenantId: string, connectorId: string, fileId: string): string {
  return `connector/${tenantId}/${connectorId}/file/${fileId}`;
}
