import { randomUUID } from 'node:crypto';
import { createEntityStore } from './entity-store.js';
import { generateSecret, hashSecret, visiblePrefix } from './secrets.js';
import type { Scope } from './scopes.js';
import type { TenancyStorage } from './storage.js';

export interface ApiKey {
  id: string;
  tenantId: string;
  name: string;
  prefix: string;
  scopes: Scope[];
  expiresAt: string | null;
  active: boolean;
  createdAt: string;
  /** SHA-256 of the secret; the secret itself is never stored. */
  hash: string;
}

export interface NewApiKey {
  name: string;
  scopes: Scope[];
  expiresAt?: string | null;
}

export function createApiKeyRecords({ redis, keys, now }: TenancyStorage) {
  const apiKeys = createEntityStore<ApiKey>(redis, keys.entity('api-key'), {
    tenantId: { type: 'string' },
    name: { type: 'string' },
    prefix: { type: 'string' },
    scopes: { type: 'string[]' },
    expiresAt: { type: 'string' },
    active: { type: 'boolean' },
    createdAt: { type: 'string' },
    hash: { type: 'string' },
  });

  return {
    /** The secret is returned here and nowhere else. */
    async createApiKey(tenantId: string, input: NewApiKey): Promise<{ apiKey: ApiKey; secret: string }> {
      const secret = generateSecret('apiKey');
      const apiKey = await apiKeys.save({
        id: randomUUID(),
        tenantId,
        name: input.name,
        prefix: visiblePrefix(secret),
        scopes: input.scopes,
        expiresAt: input.expiresAt ? new Date(input.expiresAt).toISOString() : null,
        active: true,
        createdAt: now().toISOString(),
        hash: hashSecret(secret),
      });
      await redis
        .multi()
        .set(keys.apiKeyByHash(apiKey.hash), apiKey.id)
        .zAdd(keys.tenantApiKeys(tenantId), { score: Date.parse(apiKey.createdAt), value: apiKey.id })
        .exec();
      return { apiKey, secret };
    },

    getApiKey: (id: string) => apiKeys.get(id),

    async findApiKeyBySecret(secret: string): Promise<ApiKey | undefined> {
      const id = await redis.get(keys.apiKeyByHash(hashSecret(secret)));
      return id ? apiKeys.get(id) : undefined;
    },

    async listApiKeys(tenantId: string): Promise<ApiKey[]> {
      return apiKeys.getMany(await redis.zRange(keys.tenantApiKeys(tenantId), 0, -1));
    },

    /** Deactivation is final: rotation creates a new key. */
    async deactivateApiKey(apiKey: ApiKey): Promise<ApiKey> {
      return apiKeys.save({ ...apiKey, active: false });
    },
  };
}
