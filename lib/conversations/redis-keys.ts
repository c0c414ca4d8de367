/** Where conversations live in Redis, under the deployment's prefix. */
export function conversationKeys(prefix: string) {
  return {
    record: (conversationId: string) => `${prefix}:conversation:${conversationId}`,
    transcript: (conversationId: string) => `${prefix}:conversation:${conversationId}:messages`,
    events: (conversationId: string) => `${prefix}:conversation:${conversationId}:events`,
    /** Answer ratings (docs/insights.md): a hash of message id to `{rating, reason, ratedAt, …}` as JSON. */
    feedback: (conversationId: string) => `${prefix}:conversation:${conversationId}:feedback`,
    /** What of the conversation was counted in the insight counters already (a retried activity counts nothing twice). */
    counted: (conversationId: string) => `${prefix}:conversation:${conversationId}:counted`,
    live: (conversationId: string) => `${prefix}:conversation-live:${conversationId}`,
    ofTenant: (tenantId: string) => `${prefix}:tenant:${tenantId}:conversations`,
    /** The tenant's conversations waiting for or with a person, by when they last changed status. */
    needingPerson: (tenantId: string) => `${prefix}:tenant:${tenantId}:conversations-needing-person`,
    /**
     * The base of the inbox's indexes of a tenant's conversations that need a person (`inbox-placement.ts`):
     * `<base>:team:<id>`, `<base>:assignee:<userId>`, `<base>:unassigned`, `<base>:queue:<id>` (waiting, no one
     * assigned, oldest first), `<base>:last-assigned` (when each agent was last given one: the turn).
     */
    inbox: (tenantId: string) => `${prefix}:tenant:${tenantId}:inbox`,
    /** A verified visitor's conversations with one operator, by creation time (the user id hashed). */
    ofVerifiedVisitor: (operatorId: string, userIdHash: string) =>
      `${prefix}:operator:${operatorId}:verified-visitor:${userIdHash}:conversations`,
    /** An identity token's nonce (hashed), kept while the token is valid: it is taken once. */
    identityNonce: (operatorId: string, nonceHash: string) => `${prefix}:identity-nonce:${operatorId}:${nonceHash}`,
    /** A verified visitor's session, by the hash of its token. */
    identitySession: (tokenHash: string) => `${prefix}:identity-session:${tokenHash}`,
  };
}
