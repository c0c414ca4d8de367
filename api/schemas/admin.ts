import type { JSONSchema } from 'json-schema-to-ts';
import { apiKeyScopes, userRoles } from '#tenancy/index.js';
import { keysOf, name, nullable, objectOf, timestamp, uuid } from './common.js';
import { textPatterns } from './text-patterns.js';

// Requests

export const createTenantRequest = objectOf({ name });

export const createKnowledgeBaseRequest = objectOf({ name });

export const createApiKeyRequest = objectOf(
  {
    name,
    scopes: { type: 'array', minItems: 1, uniqueItems: true, items: { enum: [...apiKeyScopes] } },
    expiresAt: nullable(timestamp),
  },
  ['expiresAt'],
);

export const updateApiKeyRequest = objectOf({
  active: { const: false, description: 'Deactivation is final; rotate by creating a new key.' },
});

/**
 * `example.com` (exact domain), `*.example.com` (every subdomain) or `https://app.example.com`
 * (one scheme and host, with an optional port).
 */
export const allowedDomainPattern = {
  type: 'string',
  maxLength: 253,
  pattern: textPatterns.allowedDomain.pattern,
  examples: ['example.com', '*.example.com', 'https://app.example.com'],
} as const;

const locale = { type: 'string', pattern: textPatterns.languageTag.pattern, examples: ['de', 'en-GB'] } as const;

const operatorFields = {
  name,
  knowledgeBaseId: uuid,
  allowedDomains: { type: 'array', maxItems: 100, uniqueItems: true, items: allowedDomainPattern },
  locale: nullable(locale),
} as const;

export const createOperatorRequest = objectOf(operatorFields, ['knowledgeBaseId', 'allowedDomains', 'locale']);

const operatorChanges = {
  ...operatorFields,
  active: { type: 'boolean', description: 'false disables the operator: its keys are refused (403) until it is enabled again.' },
} as const;

export const updateOperatorRequest = { ...objectOf(operatorChanges, keysOf(operatorChanges)), minProperties: 1 };

export const updateUserRequest = objectOf({
  active: {
    type: 'boolean',
    description:
      'false deactivates the user: the token is refused (401) at once; true lets the same token work again until it expires.',
  },
});

export const createUserRequest = objectOf({
  name,
  email: { type: 'string', format: 'email', maxLength: 254 },
  role: { enum: [...userRoles] },
});

// Responses

export const tenantResponse = objectOf({ id: uuid, name, defaultKnowledgeBaseId: uuid, createdAt: timestamp });

export const knowledgeBaseResponse = objectOf({ id: uuid, name, isDefault: { type: 'boolean' }, createdAt: timestamp });

const apiKeyFields = {
  id: uuid,
  prefix: { type: 'string', examples: ['kb_sk_Ab12Cd'] },
  name,
  scopes: { type: 'array', items: { enum: [...apiKeyScopes] } },
  expiresAt: nullable(timestamp),
  active: { type: 'boolean' },
  createdAt: timestamp,
} as const;

export const apiKeyResponse = objectOf(apiKeyFields);

export const createdApiKeyResponse = objectOf({
  ...apiKeyFields,
  key: { type: 'string', description: 'The secret: shown in this response only.' },
});

export const operatorResponse = objectOf({
  id: uuid,
  operatorKey: { type: 'string', pattern: '^op_' },
  ...operatorFields,
  active: { type: 'boolean', description: "A disabled operator's keys are refused." },
  previousKeyExpiresAt: {
    ...nullable(timestamp),
    description: 'After a rotation, until when the key before it still works (OPERATOR_KEY_GRACE_HOURS); null before any.',
  },
  createdAt: timestamp,
  updatedAt: timestamp,
});

const userFields = {
  id: uuid,
  name,
  email: { type: 'string' },
  role: { enum: [...userRoles] },
  active: { type: 'boolean', description: "A deactivated user's token is refused (401)." },
  tokenExpiresAt: {
    ...timestamp,
    description: 'When the current token stops working (403 key_expired): USER_TOKEN_LIFETIME_DAYS after it was issued.',
  },
  createdAt: timestamp,
} as const;

export const userResponse = objectOf(userFields);

export const createdUserResponse = objectOf({
  ...userFields,
  token: { type: 'string', description: 'The bearer token: shown in this response only.' },
});

const count = { type: 'integer', minimum: 0 } as const;

export const reindexResponse = objectOf({
  workflowId: { type: 'string', description: 'The Temporal workflow of the re-index (one per knowledge base at a time)' },
  state: {
    enum: ['running', 'completed', 'stopped'],
    description: '`stopped`: the re-index ended without completing (terminated or failed); start it again.',
  },
  total: { ...nullable(count), description: 'Sources in another embedding space when it started; null until counted' },
  sent: { ...count, description: 'Re-embed requests sent to the items (a source asked again in a later pass counts again)' },
  remaining: {
    ...nullable(count),
    description: 'Sources still in another embedding space at the last count; null until counted',
  },
  startedAt: timestamp,
  completedAt: nullable(timestamp),
});

export const resealResponse = objectOf({
  records: {
    ...count,
    description: 'Records holding sealed secrets that were opened (and sealed again where an earlier key had sealed them)',
  },
  unopened: {
    type: 'array',
    description: 'Records that could not be opened: put their key back in `SECRETS_PREVIOUS_KEYS` before retiring it',
    items: objectOf({
      kind: { enum: ['messaging-connection', 'connector', 'operator-identity', 'event-endpoint'] },
      id: uuid,
      reason: { enum: ['unknown_key', 'tampered', 'malformed'] },
    }),
  },
});

export const listOf = (key: string, item: JSONSchema) => objectOf({ [key]: { type: 'array', items: item } });
