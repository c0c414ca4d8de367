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
  /** A deactivated user's token is refused, whatever its expiry. */
  active: boolean;
  createdAt: string;
  /** When the current token stops working; rotating gives a new token with a new lifetime. */
  tokenExpiresAt: string;
  /** SHA-256 of the bearer token; the token itself is never stored. */
  tokenHash: string;
}

export class EmailTakenError extends Error {
  constructor(readonly email: string) {
    super(`A user with the e-mail ${email} already exists in this tenant.`);
    this.name = 'EmailTakenError';
  }
}

/** How long a user token works after it is issued. */
export interface UserTokenSettings {
  userTokenLifetimeMs: number;
}

export function createUserRecords({ redis, keys, now }: TenancyStorage, { userTokenLifetimeMs }: UserTokenSettings) {
  const users = createEntityStore<User>(redis, keys.entity('user'), {
    tenantId: { type: 'string' },
    name: { type: 'string' },
    email: { type: 'string' },
    role: { type: 'string' },
    active: { type: 'boolean' },
    createdAt: { type: 'string' },
    tokenExpiresAt: { type: 'string' },
    tokenHash: { type: 'string' },
  });

  const expiryFrom = (issuedAt: Date) => new Date(issuedAt.getTime() + userTokenLifetimeMs).toISOString();

  /**
   * Users stored before tokens had a lifecycle are active, and their token expires one lifetime
   * after the user was created: no token lives for ever.
   */
  const withLifecycle = (user: User | undefined): User | undefined =>
    user && {
      ...user,
      active: user.active ?? true,
      tokenExpiresAt: user.tokenExpiresAt ?? expiryFrom(new Date(user.createdAt)),
    };

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
      const createdAt = now();
      try {
        const user = await users.save({
          id,
          tenantId,
          ...input,
          active: true,
          createdAt: createdAt.toISOString(),
          tokenExpiresAt: expiryFrom(createdAt),
          tokenHash: hashSecret(token),
        });
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

    getUser: async (id: string) => withLifecycle(await users.get(id)),

    /** The user whose current token this is; a rotated-away token finds no one. */
    async findUserByToken(token: string): Promise<User | undefined> {
      const hash = hashSecret(token);
      const id = await redis.get(keys.userByTokenHash(hash));
      const user = id ? withLifecycle(await users.get(id)) : undefined;
      return user?.tokenHash === hash ? user : undefined;
    },

    async listUsers(tenantId: string): Promise<User[]> {
      return (await users.getMany(await redis.zRange(keys.tenantUsers(tenantId), 0, -1))).map((user) => withLifecycle(user)!);
    },

    /** Deactivation refuses the user's token at once; reactivation lets the same token work again until it expires. */
    async setUserActive(user: User, active: boolean): Promise<User> {
      return users.save({ ...user, active });
    },

    /** A new token with a full lifetime; the old one stops working at once. Returned here and nowhere else. */
    async rotateUserToken(user: User): Promise<{ user: User; token: string }> {
      const token = generateSecret('userToken');
      const rotated = await users.save({ ...user, tokenHash: hashSecret(token), tokenExpiresAt: expiryFrom(now()) });
      await redis.multi().set(keys.userByTokenHash(rotated.tokenHash), user.id).del(keys.userByTokenHash(user.tokenHash)).exec();
      return { user: rotated, token };
    },
  };
}
