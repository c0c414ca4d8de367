import { randomUUID } from 'node:crypto';
import { createEntityStore } from './entity-store.js';
import { generateSecret, hashSecret } from './secrets.js';
import type { TenancyStorage } from './storage.js';

export const userRoles = ['admin', 'agent'] as const;
export type UserRole = (typeof userRoles)[number];

/** A person of the tenant's team: an admin of its connections, or an agent of its inbox. */
export interface User {
  id: string;
  tenantId: string;
  name: string;
  email: string;
  role: UserRole;
  createdAt: string;
  /** SHA-256 of the bearer token; the token itself is never stored. */
  tokenHash: string;
}

export class EmailTakenError extends Error {
  constructor(readonly email: string) {
    super(`A user with the e-mail ${email} already exists in this tenant.`);
    this.name = 'EmailTakenError';
  }
}

export function createUserRecords({ redis, keys, now }: TenancyStorage) {
  const users = createEntityStore<User>(redis, keys.entity('user'), {
    tenantId: { type: 'string' },
    name: { type: 'string' },
    email: { type: 'string' },
    role: { type: 'string' },
    createdAt: { type: 'string' },
    tokenHash: { type: 'string' },
  });

  return {
    /** The token is returned here and nowhere else. E-mail addresses are unique within a tenant. */
    async createUser(
      tenantId: string,
      input: { name: string; email: string; role: UserRole },
    ): Promise<{ user: User; token: string }> {
      const id = randomUUID();
      const claimed = await redis.set(keys.userByEmail(tenantId, input.email), id, { NX: true });
      if (claimed === null) throw new EmailTakenError(input.email);

      const token = generateSecret('userToken');
      try {
        const user = await users.save({ id, tenantId, ...input, createdAt: now().toISOString(), tokenHash: hashSecret(token) });
        await redis
          .multi()
          .set(keys.userByTokenHash(user.tokenHash), id)
          .zAdd(keys.tenantUsers(tenantId), { score: Date.parse(user.createdAt), value: id })
          .exec();
        return { user, token };
      } catch (error) {
        // Give the address back, so that a retry after the failure is not refused as a duplicate.
        await redis.del(keys.userByEmail(tenantId, input.email)).catch(() => undefined);
        throw error;
      }
    },

    getUser: (id: string) => users.get(id),

    async findUserByToken(token: string): Promise<User | undefined> {
      const id = await redis.get(keys.userByTokenHash(hashSecret(token)));
      return id ? users.get(id) : undefined;
    },

    async listUsers(tenantId: string): Promise<User[]> {
      return users.getMany(await redis.zRange(keys.tenantUsers(tenantId), 0, -1));
    },
  };
}
