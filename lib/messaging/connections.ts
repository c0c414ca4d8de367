import { randomBytes, randomUUID } from 'node:crypto';
import { tagUnavailable } from '#platform/dependency-errors.js';
import type { RedisClient } from '#platform/redis.js';
import { messagingKeys } from './redis-keys.js';
import { sealedFields } from '#platform/sealed-fields.js';
import type { SecretBox } from '#platform/secret-box.js';

/** `token_invalid`: the platform refused the access token; sending stops until it is replaced. */
export type ConnectionStatus = 'active' | 'token_invalid';

/**
 * A tenant's connection to one number of the messaging platform (the contract's app connection),
 * created from one `messaging_api` credential. This is everything but the secrets: those stay
 * sealed in Redis and come out only through `credentialsOf`, so a record can be logged or shown.
 */
export interface MessagingConnection {
  id: string;
  /** The credential's id; the connection has its own (`id`), as the contract shows both. */
  credentialId: string;
  tenantId: string;
  type: 'messaging_api';
  name: string;
  /** The AI operator that answers on this number. */
  operatorId: string;
  businessAccountId: string;
  /** The platform's id of the number; one connection per number within a tenant. */
  phoneNumberId: string;
  /** E.164. */
  phoneNumber: string;
  /** `v<major>.<minor>`, the Graph API version to send with. */
  apiVersion: string;
  /** Without an app secret, deliveries cannot be verified: the connection is not ready to receive. */
  hasAppSecret: boolean;
  /**
   * Deliveries without a valid signature are accepted (a local stand-in of the platform cannot sign).
   * For development only: never on a production connection, where it would let anyone who learns
   * the webhook path inject messages.
   */
  developmentMode: boolean;
  /** The random last segment of the callback URL: 192 bits, derived from nothing. */
  webhookPath: string;
  status: ConnectionStatus;
  createdAt: string;
  updatedAt: string;
}

/** What a connection is created from: its settings as stored, and the secrets to seal. */
export type NewConnection = Pick<
  MessagingConnection,
  'name' | 'operatorId' | 'businessAccountId' | 'phoneNumberId' | 'phoneNumber' | 'apiVersion'
> & {
  accessToken: string;
  appSecret?: string;
  developmentMode?: boolean;
};

/** The decrypted secrets of a connection: to verify deliveries, answer the handshake, and send. */
export interface ConnectionCredentials {
  accessToken: string;
  appSecret?: string;
  verifyToken: string;
}

export class PhoneNumberTakenError extends Error {
  constructor(readonly phoneNumberId: string) {
    super(`The number ${phoneNumberId} is already connected; remove that connection first to connect it again.`);
    this.name = 'PhoneNumberTakenError';
  }
}

/** Each secret and the hash field that holds it sealed. */
const secretFields = {
  accessToken: 'accessTokenSealed',
  appSecret: 'appSecretSealed',
  verifyToken: 'verifyTokenSealed',
} as const;

const connectionId = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const webhookPathFormat = /^[A-Za-z0-9_-]{22,128}$/;

/**
 * Messaging connections in Redis hashes under `prefix`, with look-ups by webhook path, by phone
 * number id and by tenant. Secrets are sealed with `box` (AES-256-GCM), each bound to its tenant,
 * connection and field; values sealed with a previous key are re-sealed with the current one when
 * read. When Redis cannot be reached, every function fails with a DependencyUnavailableError.
 */
export function createMessagingConnections(
  redis: RedisClient,
  prefix: string,
  box: SecretBox,
  now: () => Date = () => new Date(),
) {
  const keys = messagingKeys(prefix);
  const secrets = sealedFields(redis, box, secretFields);

  async function get(id: string): Promise<MessagingConnection | undefined> {
    if (!connectionId.test(id)) return undefined;
    const hash = await redis.hGetAll(keys.connection(id));
    return hash.tenantId ? fromHash(id, hash) : undefined;
  }

  async function getBy(indexKey: string): Promise<MessagingConnection | undefined> {
    const id = await redis.get(indexKey);
    return id ? get(id) : undefined;
  }

  return tagUnavailable('redis', {
    /** Generates the webhook path and verify token. A number the tenant connected already: PhoneNumberTakenError. */
    async create(tenantId: string, input: NewConnection): Promise<MessagingConnection> {
      const id = randomUUID();
      const claimed = await redis.set(keys.byPhoneNumberId(tenantId, input.phoneNumberId), id, { NX: true });
      if (claimed === null) throw new PhoneNumberTakenError(input.phoneNumberId);

      const createdAt = now().toISOString();
      const connection: MessagingConnection = {
        id,
        credentialId: randomUUID(),
        tenantId,
        type: 'messaging_api',
        name: input.name,
        operatorId: input.operatorId,
        businessAccountId: input.businessAccountId,
        phoneNumberId: input.phoneNumberId,
        phoneNumber: input.phoneNumber,
        apiVersion: input.apiVersion,
        hasAppSecret: Boolean(input.appSecret),
        developmentMode: input.developmentMode ?? false,
        webhookPath: randomBytes(24).toString('base64url'),
        status: 'active',
        createdAt,
        updatedAt: createdAt,
      };
      const sealed = secrets.seal(connection, {
        accessToken: input.accessToken,
        ...(input.appSecret ? { appSecret: input.appSecret } : {}),
        verifyToken: randomBytes(32).toString('base64url'),
      });

      try {
        await redis
          .multi()
          .hSet(keys.connection(id), { ...toHash(connection), ...sealed })
          .set(keys.byWebhookPath(connection.webhookPath), id)
          .zAdd(keys.ofTenant(tenantId), { score: Date.parse(createdAt), value: id })
          .exec();
      } catch (error) {
        // Give the number back, so that a retry after the failure is not refused as a duplicate.
        await redis.del(keys.byPhoneNumberId(tenantId, input.phoneNumberId)).catch(() => undefined);
        throw error;
      }
      return connection;
    },

    /** A connection by id; undefined when there is none (or the id is not a UUID). */
    get,

    /** The connection whose callback URL ends in `webhookPath`: how a delivery finds its connection. */
    async getByWebhookPath(webhookPath: string): Promise<MessagingConnection | undefined> {
      return webhookPathFormat.test(webhookPath) ? getBy(keys.byWebhookPath(webhookPath)) : undefined;
    },

    /** The tenant's connection of the platform's number id (`metadata.phone_number_id` of a delivery). */
    async getByPhoneNumberId(tenantId: string, phoneNumberId: string): Promise<MessagingConnection | undefined> {
      return getBy(keys.byPhoneNumberId(tenantId, phoneNumberId));
    },

    /**
     * Removes a connection: its webhook address stops answering (404), its secrets are gone, and the
     * number can be connected again (with a new token, say); its registered templates go with it. Its conversations stay; what they would
     * still send is recorded as not delivered (`connection_removed`).
     */
    async remove(connection: Pick<MessagingConnection, 'id' | 'tenantId' | 'phoneNumberId' | 'webhookPath'>): Promise<void> {
      await redis.eval(
        `redis.call('DEL', KEYS[1], KEYS[2], KEYS[5])
         redis.call('ZREM', KEYS[3], ARGV[1])
         if redis.call('GET', KEYS[4]) == ARGV[1] then redis.call('DEL', KEYS[4]) end`,
        {
          keys: [
            keys.connection(connection.id),
            keys.byWebhookPath(connection.webhookPath),
            keys.ofTenant(connection.tenantId),
            keys.byPhoneNumberId(connection.tenantId, connection.phoneNumberId),
            keys.templates(connection.id),
          ],
          arguments: [connection.id],
        },
      );
    },

    /** Oldest first. */
    async listForTenant(tenantId: string): Promise<MessagingConnection[]> {
      const ids = await redis.zRange(keys.ofTenant(tenantId), 0, -1);
      if (ids.length === 0) return [];
      const batch = redis.multi();
      for (const id of ids) batch.hGetAll(keys.connection(id));
      const hashes = (await batch.exec()) as unknown as Array<Record<string, string>>;
      return ids.flatMap((id, i) => (hashes[i]?.tenantId ? [fromHash(id, hashes[i])] : []));
    },

    /**
     * The connection's secrets, decrypted. Values sealed with a previous key are sealed again with the
     * current key and written back, which is what lets an old key be retired (see secret-box.ts).
     * Throws SecretBoxError when a value cannot be opened (its key is not configured, or it was altered),
     * and an Error when the connection does not exist.
     */
    async credentialsOf({ id }: Pick<MessagingConnection, 'id'>): Promise<ConnectionCredentials> {
      const credentials = await secrets.open(keys.connection(id), id);
      if (!credentials?.accessToken) throw new Error(`No messaging connection ${id}.`);
      return credentials as ConnectionCredentials;
    },

    /**
     * The platform refused the token (error 190): the connection stops sending until the token is
     * replaced. An unknown id changes nothing.
     */
    async markTokenInvalid(id: string): Promise<void> {
      if (!(await get(id))) return;
      await redis.hSet(keys.connection(id), { status: 'token_invalid', updatedAt: now().toISOString() });
    },

    /** Every connection's secrets sealed again with the current key (see `sealedFields.resealAll`). */
    resealAll: () => secrets.resealAll(keys.connection),
  });
}

export type MessagingConnections = ReturnType<typeof createMessagingConnections>;

function toHash(connection: MessagingConnection): Record<string, string> {
  const { id: _id, hasAppSecret: _derived, developmentMode, ...rest } = connection;
  return { ...rest, developmentMode: String(developmentMode) };
}

function fromHash(id: string, hash: Record<string, string>): MessagingConnection {
  return {
    id,
    credentialId: hash.credentialId ?? '',
    tenantId: hash.tenantId!,
    type: 'messaging_api',
    name: hash.name ?? '',
    operatorId: hash.operatorId ?? '',
    businessAccountId: hash.businessAccountId ?? '',
    phoneNumberId: hash.phoneNumberId ?? '',
    phoneNumber: hash.phoneNumber ?? '',
    apiVersion: hash.apiVersion ?? '',
    hasAppSecret: Boolean(hash.appSecretSealed),
    developmentMode: hash.developmentMode === 'true',
    webhookPath: hash.webhookPath ?? '',
    status: (hash.status ?? 'active') as ConnectionStatus,
    createdAt: hash.createdAt ?? '',
    updatedAt: hash.updatedAt ?? hash.createdAt ?? '',
  };
}
