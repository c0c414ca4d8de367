import { randomBytes } from 'node:crypto';
import { tagUnavailable } from '#platform/dependency-errors.js';
import type { RedisClient } from '#platform/redis.js';
import { sealedFields } from '#platform/sealed-fields.js';
import type { SecretBox } from '#platform/secret-box.js';
import type { Operator } from './operators.js';

/** The prefix of identity secrets, so a leaked one is recognisable. */
export const identitySecretPrefix = 'kb_is_';

/** How long the secret before a rotation keeps verifying when the rotation does not say. */
export const defaultIdentityGraceSeconds = 24 * 3600;
/** The longest grace period a rotation may ask for. */
export const maxIdentityGraceSeconds = 7 * 24 * 3600;

/** What the API shows of an operator's identity settings: never a secret. */
export interface OperatorIdentityStatus {
  operatorId: string;
  /** Visitors without a valid identity token are refused (`identity_required`). */
  required: boolean;
  hasSecret: boolean;
  secretCreatedAt: string | null;
  /** Until when the secret before the last rotation still verifies; null when none does. */
  previousSecretExpiresAt: string | null;
}

/** The secrets a token may be signed with now: the current one, then the previous one in its grace period. */
export interface IdentityVerification {
  required: boolean;
  secrets: string[];
}

const secretFields = { current: 'secretSealed', previous: 'previousSecretSealed' } as const;

/**
 * Each operator's visitor identity settings in a Redis hash of their own (`<prefix>:operator-identity:<id>`):
 * whether identity is required, and the identity secret, sealed (AES-256-GCM, bound to the tenant,
 * operator and field) because verifying an HMAC needs the secret itself. A rotation makes a new
 * secret current at once; the one it replaces keeps verifying for the grace period the rotation
 * asks for, then stops. A secret is handed out once, by the rotation that created it.
 */
export function createOperatorIdentities(redis: RedisClient, prefix: string, box: SecretBox, now: () => Date = () => new Date()) {
  const keyOf = (operatorId: string) => `${prefix}:operator-identity:${operatorId}`;
  const sealed = sealedFields(redis, box, secretFields);

  async function read(operator: Pick<Operator, 'id'>) {
    const hash = await redis.hGetAll(keyOf(operator.id));
    const previousExpiresAt = hash.previousSecretExpiresAt ? Date.parse(hash.previousSecretExpiresAt) : 0;
    const previousLive = Boolean(hash.previousSecretSealed) && previousExpiresAt > now().getTime();
    return { hash, previousLive };
  }

  const statusOf = (operator: Pick<Operator, 'id'>, hash: Record<string, string>, previousLive: boolean) => ({
    operatorId: operator.id,
    required: hash.required === '1',
    hasSecret: Boolean(hash.secretSealed),
    secretCreatedAt: hash.secretCreatedAt || null,
    previousSecretExpiresAt: previousLive ? hash.previousSecretExpiresAt! : null,
  });

  async function status(operator: Pick<Operator, 'id'>): Promise<OperatorIdentityStatus> {
    const { hash, previousLive } = await read(operator);
    return statusOf(operator, hash, previousLive);
  }

  return tagUnavailable('redis', {
    status,

    /**
     * A new secret, current at once (returned here and never again); the current one, if any, keeps
     * verifying for `graceSeconds`; a secret replaced by an earlier rotation stops at once.
     */
    async rotateSecret(
      operator: Pick<Operator, 'id' | 'tenantId'>,
      graceSeconds: number = defaultIdentityGraceSeconds,
    ): Promise<{ secret: string; status: OperatorIdentityStatus }> {
      const key = keyOf(operator.id);
      const record = { id: operator.id, tenantId: operator.tenantId };
      const current = (await sealed.open(key, operator.id))?.current;
      const secret = identitySecretPrefix + randomBytes(32).toString('base64url');
      const at = now();
      const keepPrevious = current !== undefined && graceSeconds > 0;
      const fields = sealed.seal(record, { current: secret, ...(keepPrevious ? { previous: current } : {}) });
      await redis.hSet(key, {
        tenantId: operator.tenantId,
        ...fields,
        secretCreatedAt: at.toISOString(),
        previousSecretExpiresAt: keepPrevious ? new Date(at.getTime() + graceSeconds * 1000).toISOString() : '',
      });
      return { secret, status: await status(operator) };
    },

    async setRequired(operator: Pick<Operator, 'id' | 'tenantId'>, required: boolean): Promise<OperatorIdentityStatus> {
      await redis.hSet(keyOf(operator.id), { tenantId: operator.tenantId, required: required ? '1' : '0' });
      return status(operator);
    },

    /** What a token is checked against now; the previous secret only within its grace period. */
    async verification(operator: Pick<Operator, 'id'>): Promise<IdentityVerification> {
      const { hash, previousLive } = await read(operator);
      if (!hash.secretSealed) return { required: hash.required === '1', secrets: [] };
      const opened = (await sealed.open(keyOf(operator.id), operator.id)) ?? {};
      const secrets = [opened.current, previousLive ? opened.previous : undefined].filter(
        (secret): secret is string => secret !== undefined,
      );
      return { required: hash.required === '1', secrets };
    },

    /** Whether identity is required, without opening any secret. */
    async isRequired(operator: Pick<Operator, 'id'>): Promise<boolean> {
      return (await redis.hGet(keyOf(operator.id), 'required')) === '1';
    },

    /** Every operator's secrets sealed again with the current key (`POST /admin/secrets/reseal`). */
    resealAll: () => sealed.resealAll(keyOf),
  });
}

export type OperatorIdentities = ReturnType<typeof createOperatorIdentities>;
