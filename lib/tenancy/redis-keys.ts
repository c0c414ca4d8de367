/** Names of the plain Redis structures that index the tenancy records. */
export function tenancyKeys(prefix: string) {
  return {
    entity: (kind: string) => `${prefix}:${kind}`,
    /** Sorted sets of a tenant's records by creation time. */
    tenantKnowledgeBases: (tenantId: string) => `${prefix}:tenant:${tenantId}:knowledge-bases`,
    tenantApiKeys: (tenantId: string) => `${prefix}:tenant:${tenantId}:api-keys`,
    tenantOperators: (tenantId: string) => `${prefix}:tenant:${tenantId}:operators`,
    tenantUsers: (tenantId: string) => `${prefix}:tenant:${tenantId}:users`,
    /** A tenant's teams (a hash of id to JSON) and its routing rules (JSON). */
    tenantTeams: (tenantId: string) => `${prefix}:tenant:${tenantId}:teams`,
    tenantRouting: (tenantId: string) => `${prefix}:tenant:${tenantId}:routing`,
    /** Look-ups from a credential (or its hash) to the record's id. */
    apiKeyByHash: (hash: string) => `${prefix}:api-key-by-hash:${hash}`,
    operatorByKey: (operatorKey: string) => `${prefix}:operator-by-key:${operatorKey}`,
    userByTokenHash: (hash: string) => `${prefix}:user-by-token:${hash}`,
    userByEmail: (tenantId: string, email: string) => `${prefix}:user-by-email:${tenantId}:${email.toLowerCase()}`,
  };
}

export type TenancyKeys = ReturnType<typeof tenancyKeys>;
