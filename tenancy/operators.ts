import { randomUUID } from 'node:crypto';
import { createEntityStore } from './entity-store.js';
import { generateSecret } from './secrets.js';
import type { TenancyStorage } from './storage.js';

/** The AI operator a widget or a messaging connection talks to. Its key is public by design. */
export interface Operator {
  id: string;
  tenantId: string;
  name: string;
  knowledgeBaseId: string;
  /** Origin patterns; empty permits every origin. */
  allowedDomains: string[];
  locale: string | null;
  operatorKey: string;
  createdAt: string;
  updatedAt: string;
}

export type OperatorChanges = Partial<Pick<Operator, 'name' | 'knowledgeBaseId' | 'allowedDomains' | 'locale'>>;

export function createOperatorRecords({ redis, keys, now }: TenancyStorage) {
  const operators = createEntityStore<Operator>(redis, keys.entity('operator'), {
    tenantId: { type: 'string' },
    name: { type: 'string' },
    knowledgeBaseId: { type: 'string' },
    allowedDomains: { type: 'string[]' },
    locale: { type: 'string' },
    operatorKey: { type: 'string' },
    createdAt: { type: 'string' },
    updatedAt: { type: 'string' },
  });

  return {
    async createOperator(
      tenantId: string,
      input: { name: string; knowledgeBaseId: string; allowedDomains: string[]; locale: string | null },
    ): Promise<Operator> {
      const createdAt = now().toISOString();
      const operator = await operators.save({
        id: randomUUID(),
        tenantId,
        ...input,
        operatorKey: generateSecret('operatorKey'),
        createdAt,
        updatedAt: createdAt,
      });
      await redis
        .multi()
        .set(keys.operatorByKey(operator.operatorKey), operator.id)
        .zAdd(keys.tenantOperators(tenantId), { score: Date.parse(createdAt), value: operator.id })
        .exec();
      return operator;
    },

    getOperator: (id: string) => operators.get(id),

    async findOperatorByKey(operatorKey: string): Promise<Operator | undefined> {
      const id = await redis.get(keys.operatorByKey(operatorKey));
      return id ? operators.get(id) : undefined;
    },

    async listOperators(tenantId: string): Promise<Operator[]> {
      return operators.getMany(await redis.zRange(keys.tenantOperators(tenantId), 0, -1));
    },

    async updateOperator(operator: Operator, changes: OperatorChanges): Promise<Operator> {
      return operators.save({ ...operator, ...changes, updatedAt: now().toISOString() });
    },
  };
}
