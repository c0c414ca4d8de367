import type { ApiKey, KnowledgeBase, Operator, Tenant, User } from '#tenancy/index.js';

/** Records as the API shows them: never a hash, and secrets only where the caller passes them in. */

export const presentTenant = ({ id, name, defaultKnowledgeBaseId, createdAt }: Tenant) => ({
  id,
  name,
  defaultKnowledgeBaseId,
  createdAt,
});

export const presentKnowledgeBase = ({ id, name, createdAt }: KnowledgeBase, tenant: Pick<Tenant, 'defaultKnowledgeBaseId'>) => ({
  id,
  name,
  isDefault: id === tenant.defaultKnowledgeBaseId,
  createdAt,
});

export const presentApiKey = ({ id, prefix, name, scopes, expiresAt, active, createdAt }: ApiKey) => ({
  id,
  prefix,
  name,
  scopes,
  expiresAt,
  active,
  createdAt,
});

export const presentOperator = ({
  id,
  operatorKey,
  name,
  knowledgeBaseId,
  allowedDomains,
  locale,
  active,
  previousKeyExpiresAt,
  createdAt,
  updatedAt,
}: Operator) => ({
  id,
  operatorKey,
  name,
  knowledgeBaseId,
  allowedDomains,
  locale,
  active,
  previousKeyExpiresAt,
  createdAt,
  updatedAt,
});

export const presentUser = ({ id, name, email, role, active, tokenExpiresAt, createdAt }: User) => ({
  id,
  name,
  email,
  role,
  active,
  tokenExpiresAt,
  createdAt,
});
