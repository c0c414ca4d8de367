/** Where tenants' event endpoints live in Redis, under the deployment's prefix. */
export function eventEndpointKeys(prefix: string) {
  return {
    /** An endpoint's record (a hash); its signing secret only sealed. */
    endpoint: (endpointId: string) => `${prefix}:event-endpoint:${endpointId}`,
    /** The endpoint's recent delivery attempts, newest first (a list, capped). */
    deliveries: (endpointId: string) => `${prefix}:event-endpoint:${endpointId}:deliveries`,
    /** A tenant's endpoints by creation time (sorted set). */
    ofTenant: (tenantId: string) => `${prefix}:tenant:${tenantId}:event-endpoints`,
  };
}
