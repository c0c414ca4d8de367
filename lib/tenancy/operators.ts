import { randomUUID } from 'node:crypto';
import { createEntityStore } from './entity-store.js';
import { generateSecret } from './secrets.js';
import type { TenancyStorage } from './storage.js';

/**
 * The AI operator a widget or a messaging connection talks to. Its key is public by design (it is
 * in every page that embeds the widget), so it is stored as it is; it can still be rotated, and the
 * operator disabled, when it is abused.
 */
export interface Operator {
  id: string;
  tenantId: string;
  name: string;
  knowledgeBaseId: string;
  /** Origin patterns; empty permits every origin. */
  allowedDomains: string[];
  locale: string | null;
  operatorKey: string;
  /** A disabled operator's keys are refused. */
  active: boolean;
  /** The key before the last rotation, accepted until `previousKeyExpiresAt` so pages can be updated. */
  previousOperatorKey: string | null;
  previousKeyExpiresAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export type OperatorChanges = Partial<Pick<Operator, 'name' | 'knowledgeBaseId' | 'allowedDomains' | 'locale' | 'active'>>;

/** How long the key before a rotation keeps working. */
export interface OperatorKeySettings {
  operatorKeyGraceMs: number;
}

export function createOperatorRecords({ redis, keys, now }: TenancyStorage, { operatorKeyGraceMs }: OperatorKeySettings) {
  const operators = createEntityStore<Operator>(redis, keys.entity('operator'), {
    tenantId: { type: 'string' },
    name: { type: 'string' },
    knowledgeBaseId: { type: 'string' },
    allowedDomains: { type: 'string[]' },
    locale: { type: 'string' },
    operatorKey: { type: 'string' },
    active: { type: 'boolean' },
    previousOperatorKey: { type: 'string' },
    previousKeyExpiresAt: { type: 'string' },
    createdAt: { type: 'string' },
    updatedAt: { type: 'string' },
  });

  /** Operators stored before keys had a lifecycle are active. */
  const withLifecycle = (operator: Operator | undefined): Operator | undefined =>
    operator && { ...operator, active: operator.active ?? true };

  const get = async (id: string) => withLifecycle(await operators.get(id));

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
        active: true,
        previousOperatorKey: null,
        previousKeyExpiresAt: null,
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

    getOperator: get,

    /**
     * The operator of a current key, or of the key before the last rotation while its grace period
     * lasts; undefined for anything else. A disabled operator is found: the caller says why it is refused.
     */
    async findOperatorByKey(operatorKey: string): Promise<Operator | undefined> {
      const id = await redis.get(keys.operatorByKey(operatorKey));
      const operator = id ? await get(id) : undefined;
      if (!operator) return undefined;
      if (operator.operatorKey === operatorKey) return operator;
      const inGrace =
        operator.previousOperatorKey === operatorKey &&
        operator.previousKeyExpiresAt !== null &&
        Date.parse(operator.previousKeyExpiresAt) > now().getTime();
      return inGrace ? operator : undefined;
    },

    async listOperators(tenantId: string): Promise<Operator[]> {
      return (await operators.getMany(await redis.zRange(keys.tenantOperators(tenantId), 0, -1))).map((operator) =>
        withLifecycle(operator)!,
      );
    },

    async updateOperator(operator: Operator, changes: OperatorChanges): Promise<Operator> {
      return operators.save({ ...operator, ...changes, updatedAt: now().toISOString() });
    },

    /**
     * A new key; the current one keeps working for the grace period, so the pages that embed it can
     * be updated. A key from an earlier rotation stops at once.
     */
    async rotateOperatorKey(operator: Operator): Promise<Operator> {
      const at = now();
      const previousKeyExpiresAt = new Date(at.getTime() + operatorKeyGraceMs);
      const rotated = await operators.save({
        ...operator,
        operatorKey: generateSecret('operatorKey'),
        previousOperatorKey: operator.operatorKey,
        previousKeyExpiresAt: previousKeyExpiresAt.toISOString(),
        updatedAt: at.toISOString(),
      });
      const batch = redis
        .multi()
        .set(keys.operatorByKey(rotated.operatorKey), operator.id)
        // The look-up of the old key goes with its grace period; the record decides until then.
        .pExpireAt(keys.operatorByKey(operator.operatorKey), Math.max(previousKeyExpiresAt.getTime(), at.getTime() + 1));
      if (operator.previousOperatorKey) batch.del(keys.operatorByKey(operator.previousOperatorKey));
      await batch.exec();
      return rotated;
    },
  };
}
