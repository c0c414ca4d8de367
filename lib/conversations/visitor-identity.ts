import { createHash } from 'node:crypto';
import { tagUnavailable } from '#platform/dependency-errors.js';
import type { RedisClient } from '#platform/redis.js';
import type { Operator } from '#tenancy/operators.js';
import type { OperatorIdentities } from '#tenancy/operator-identity.js';
import {
  checkTokenTimes,
  identityTokenRules,
  IdentityTokenError,
  parseIdentityToken,
  signedWithSecret,
} from './identity-token.js';
import { conversationKeys } from './redis-keys.js';

/** Who a valid identity token says the visitor is. */
export interface VerifiedVisitor {
  userId: string;
  name?: string;
  email?: string;
}

export interface VisitorIdentityDeps {
  redis: Pick<RedisClient, 'set'>;
  prefix: string;
  identities: Pick<OperatorIdentities, 'verification'>;
  now?: () => Date;
}

/**
 * Verifies a visitor's identity token for one operator: its shape, its signature with the
 * operator's current secret or the previous one in its grace period, its times (with the clock
 * skew), and that it is used once: its nonce (`jti`) is remembered in Redis (SET NX) until the token
 * could no longer pass the time check, so a copied token is refused however fast it is replayed.
 * Throws IdentityTokenError with the reason.
 */
export function createVisitorIdentity({ redis, prefix, identities, now = () => new Date() }: VisitorIdentityDeps) {
  const keys = conversationKeys(prefix);

  return tagUnavailable('redis', {
    async verify(operator: Pick<Operator, 'id'>, token: string): Promise<VerifiedVisitor> {
      const parsed = parseIdentityToken(token);
      const { secrets } = await identities.verification(operator);
      if (secrets.length === 0)
        throw new IdentityTokenError(
          'no_secret',
          'This operator has no identity secret: create one before sending identity tokens.',
        );
      if (!secrets.some((secret) => signedWithSecret(parsed, secret)))
        throw new IdentityTokenError(
          'bad_signature',
          "The identity token's signature does not verify with this operator's identity secret.",
        );
      const nowMs = now().getTime();
      const { claims } = parsed;
      checkTokenTimes(claims, Math.floor(nowMs / 1000));

      const lastValidMs = (claims.expiresAt + identityTokenRules.clockSkewSeconds) * 1000;
      const nonceHash = createHash('sha256').update(claims.nonce).digest('hex');
      const fresh = await redis.set(keys.identityNonce(operator.id, nonceHash), '1', {
        NX: true,
        PX: Math.max(lastValidMs - nowMs, 1000),
      });
      if (fresh === null)
        throw new IdentityTokenError(
          'replayed',
          'This identity token was used already: sign a fresh one (new nonce or jti) for each use.',
        );
      return {
        userId: claims.userId,
        ...(claims.name !== undefined ? { name: claims.name } : {}),
        ...(claims.email !== undefined ? { email: claims.email } : {}),
      };
    },
  });
}

export type VisitorIdentity = ReturnType<typeof createVisitorIdentity>;
