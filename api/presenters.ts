import type { ApiKey, KnowledgeBase, Operator, Tenant, User } from '#tenancy/index.js';

/**
 * Records as the API shows them: never a hash, and secrets only where the caller passes them in. Each
 * lists the fields it shows, so a field added to a record stays out of every answer until it is listed.
 */

export const presentTenant = (tenant: Tenant) => pick(tenant, ['id', 'name', 'defaultKnowledgeBaseId', 'createdAt']);

export const presentKnowledgeBase = (knowledgeBase: KnowledgeBase, tenant: Pick<Tenant, 'defaultKnowledgeBaseId'>) => ({
  id: knowledgeBase.id,
  name: knowledgeBase.name,
  isDefault: knowledgeBase.id === tenant.defaultKnowledgeBaseId,
  createdAt: knowledgeBase.createdAt,
});

export const presentApiKey = (key: ApiKey) => pick(key, ['id', 'prefix', 'name', 'scopes', 'expiresAt', 'active', 'createdAt']);

export const presentOperator = (operator: Operator) =>
  pick(operator, [
    'id',
    'operatorKey',
    'name',
    'knowledgeBaseId',
    'allowedDomains',
    'locale',
    'active',
    'previousKeyExpiresAt',
    'createdAt',
    'updatedAt',
  ]);

export const presentUser = (user: User) => pick(user, ['id', 'name', 'email', 'role', 'active', 'tokenExpiresAt', 'createdAt']);

/** The listed fields of `record`, in the list's order, and no other. */
function pick<T, K extends keyof T>(record: T, fields: readonly K[]): Pick<T, K> {
  return Object.fromEntries(fields.map((field) => [field, record[field]])) as Pick<T, K>;
}
