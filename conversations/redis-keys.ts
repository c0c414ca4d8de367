/** Where conversations live in Redis, under the deployment's prefix. */
export function conversationKeys(prefix: string) {
  return {
    record: (conversationId: string) => `${prefix}:conversation:${conversationId}`,
    transcript: (conversationId: string) => `${prefix}:conversation:${conversationId}:messages`,
    events: (conversationId: string) => `${prefix}:conversation:${conversationId}:events`,
    live: (conversationId: string) => `${prefix}:conversation-live:${conversationId}`,
    ofTenant: (tenantId: string) => `${prefix}:tenant:${tenantId}:conversations`,
    /** The tenant's conversations waiting for or with a person, by when they last changed status. */
    needingPerson: (tenantId: string) => `${prefix}:tenant:${tenantId}:conversations-needing-person`,
  };
}
