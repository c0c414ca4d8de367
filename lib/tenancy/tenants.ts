import { randomUUID } from 'node:crypto';
import { createEntityStore } from './entity-store.js';
import type { TenancyStorage } from './storage.js';

export interface Tenant {
  id: string;
  name: string;
  defaultKnowledgeBaseId: string;
  createdAt: string;
}

export interface KnowledgeBase {
  id: string;
  tenantId: string;
  name: string;
  createdAt: string;
}

export function createTenantRecords({ redis, keys, now }: TenancyStorage) {
  const tenants = createEntityStore<Tenant>(redis, keys.entity('tenant'), {
    name: { type: 'string' },
    defaultKnowledgeBaseId: { type: 'string' },
    createdAt: { type: 'string' },
  });
  const knowledgeBases = createEntityStore<KnowledgeBase>(redis, keys.entity('knowledge-base'), {
    tenantId: { type: 'string' },
    name: { type: 'string' },
    createdAt: { type: 'string' },
  });

  async function createKnowledgeBase(tenantId: string, name: string): Promise<KnowledgeBase> {
    const knowledgeBase = await knowledgeBases.save({ id: randomUUID(), tenantId, name, createdAt: now().toISOString() });
    await redis.zAdd(keys.tenantKnowledgeBases(tenantId), {
      score: Date.parse(knowledgeBase.createdAt),
      value: knowledgeBase.id,
    });
    return knowledgeBase;
  }

  return {
    /** A tenant always has a default knowledge base, created with it. */
    async createTenant(name: string): Promise<Tenant> {
      const id = randomUUID();
      const knowledgeBase = await createKnowledgeBase(id, name);
      return tenants.save({ id, name, defaultKnowledgeBaseId: knowledgeBase.id, createdAt: knowledgeBase.createdAt });
    },
    getTenant: (id: string) => tenants.get(id),
    createKnowledgeBase,
    getKnowledgeBase: (id: string) => knowledgeBases.get(id),
    async listKnowledgeBases(tenantId: string): Promise<KnowledgeBase[]> {
      return knowledgeBases.getMany(await redis.zRange(keys.tenantKnowledgeBases(tenantId), 0, -1));
    },
  };
}
