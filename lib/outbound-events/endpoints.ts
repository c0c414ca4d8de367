import { randomBytes, randomUUID } from 'node:crypto';
import { tagUnavailable } from '#platform/dependency-errors.js';
import type { RedisClient } from '#platform/redis.js';
import { sealedFields } from '#platform/sealed-fields.js';
import type { SecretBox } from '#platform/secret-box.js';
import type { EventType } from './event-types.js';
import { eventEndpointKeys } from './redis-keys.js';

/** `disabled`: deliveries failed for the whole retry horizon; `disabledReason` says why. Nothing is sent until re-enabled. */
export type EndpointStatus = 'active' | 'disabled';

/** A tenant's HTTPS endpoint for outbound events: everything but its signing secret, which stays sealed. */
export interface EventEndpoint {
  id: string;
  tenantId: string;
  url: string;
  description: string;
  eventTypes: EventType[];
  status: EndpointStatus;
  disabledReason: string | null;
  disabledAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export type NewEventEndpoint = Pick<EventEndpoint, 'url' | 'description' | 'eventTypes'>;

/** Endpoints a tenant may register; one more is refused. */
export const maxEndpointsPerTenant = 20;

export class EndpointLimitError extends Error {
  constructor() {
    super(`A tenant has at most ${maxEndpointsPerTenant} event endpoints; remove one first.`);
    this.name = 'EndpointLimitError';
  }
}

const endpointIdFormat = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A new signing secret: `whsec_` and 256 random bits. The whole string is the HMAC key. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/**
 * Event endpoints in Redis hashes, one sorted set of them per tenant. The signing secret is sealed
 * with `box` (bound to its tenant and endpoint) and comes out only through `signingSecretOf`, to
 * sign a delivery. When Redis cannot be reached, every function fails with DependencyUnavailableError.
 */
export function createEventEndpoints(redis: RedisClient, prefix: string, box: SecretBox, now: () => Date = () => new Date()) {
  const keys = eventEndpointKeys(prefix);
  const secrets = sealedFields(redis, box, { signingSecret: 'signingSecretSealed' });

  async function get(id: string): Promise<EventEndpoint | undefined> {
    if (!endpointIdFormat.test(id)) return undefined;
    const hash = await redis.hGetAll(keys.endpoint(id));
    return hash.tenantId ? fromHash(id, hash) : undefined;
  }

  return tagUnavailable('redis', {
    /** The endpoint and its signing secret, which is shown this once. */
    async create(tenantId: string, input: NewEventEndpoint): Promise<{ endpoint: EventEndpoint; signingSecret: string }> {
      if ((await redis.zCard(keys.ofTenant(tenantId))) >= maxEndpointsPerTenant) throw new EndpointLimitError();
      const createdAt = now().toISOString();
      const endpoint: EventEndpoint = {
        id: randomUUID(),
        tenantId,
        ...input,
        status: 'active',
        disabledReason: null,
        disabledAt: null,
        createdAt,
        updatedAt: createdAt,
      };
      const signingSecret = newSigningSecret();
      await redis
        .multi()
        .hSet(keys.endpoint(endpoint.id), { ...toHash(endpoint), ...secrets.seal(endpoint, { signingSecret }) })
        .zAdd(keys.ofTenant(tenantId), { score: Date.parse(createdAt), value: endpoint.id })
        .exec();
      return { endpoint, signingSecret };
    },

    /** An endpoint by id; undefined when there is none (or the id is not a UUID). */
    get,

    /** Oldest first. */
    async listForTenant(tenantId: string): Promise<EventEndpoint[]> {
      const ids = await redis.zRange(keys.ofTenant(tenantId), 0, -1);
      if (ids.length === 0) return [];
      const batch = redis.multi();
      for (const id of ids) batch.hGetAll(keys.endpoint(id));
      const hashes = (await batch.exec()) as unknown as Array<Record<string, string>>;
      return ids.flatMap((id, i) => (hashes[i]?.tenantId ? [fromHash(id, hashes[i])] : []));
    },

    /** Removes the endpoint, its secret and its deliveries; events still on their way to it are dropped. */
    async remove({ id, tenantId }: Pick<EventEndpoint, 'id' | 'tenantId'>): Promise<void> {
      await redis
        .multi()
        .del([keys.endpoint(id), keys.deliveries(id)])
        .zRem(keys.ofTenant(tenantId), id)
        .exec();
    },

    /** The secret that signs the endpoint's deliveries; undefined once the endpoint is gone. */
    async signingSecretOf({ id }: Pick<EventEndpoint, 'id'>): Promise<string | undefined> {
      return (await secrets.open(keys.endpoint(id), id))?.signingSecret;
    },

    /** A new signing secret, effective for the next attempt; the old one stops at once. */
    async rotateSecret(endpoint: Pick<EventEndpoint, 'id' | 'tenantId'>): Promise<string> {
      const signingSecret = newSigningSecret();
      await redis.hSet(keys.endpoint(endpoint.id), {
        ...secrets.seal(endpoint, { signingSecret }),
        updatedAt: now().toISOString(),
      });
      return signingSecret;
    },

    /** Stops deliveries to the endpoint, saying why (an existing endpoint only). */
    async disable(id: string, reason: string): Promise<void> {
      if (!(await get(id))) return;
      const at = now().toISOString();
      await redis.hSet(keys.endpoint(id), { status: 'disabled', disabledReason: reason, disabledAt: at, updatedAt: at });
    },

    /** Deliveries start again, from the next event. */
    async enable(id: string): Promise<void> {
      await redis.hSet(keys.endpoint(id), {
        status: 'active',
        disabledReason: '',
        disabledAt: '',
        updatedAt: now().toISOString(),
      });
    },

    /** Every endpoint's secret sealed again with the current key (see `sealedFields.resealAll`). */
    resealAll: () => secrets.resealAll(keys.endpoint),
  });
}

export type EventEndpoints = ReturnType<typeof createEventEndpoints>;

function toHash(endpoint: EventEndpoint): Record<string, string> {
  return {
    tenantId: endpoint.tenantId,
    url: endpoint.url,
    description: endpoint.description,
    eventTypes: JSON.stringify(endpoint.eventTypes),
    status: endpoint.status,
    disabledReason: endpoint.disabledReason ?? '',
    disabledAt: endpoint.disabledAt ?? '',
    createdAt: endpoint.createdAt,
    updatedAt: endpoint.updatedAt,
  };
}

function fromHash(id: string, hash: Record<string, string>): EventEndpoint {
  return {
    id,
    tenantId: hash.tenantId!,
    url: hash.url ?? '',
    description: hash.description ?? '',
    eventTypes: JSON.parse(hash.eventTypes ?? '[]') as EventType[],
    status: (hash.status ?? 'active') as EndpointStatus,
    disabledReason: hash.disabledReason || null,
    disabledAt: hash.disabledAt || null,
    createdAt: hash.createdAt ?? '',
    updatedAt: hash.updatedAt ?? hash.createdAt ?? '',
  };
}
