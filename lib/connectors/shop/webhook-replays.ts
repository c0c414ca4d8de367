import { createHash } from 'node:crypto';
import { tagUnavailable } from '#platform/dependency-errors.js';
import type { RedisClient } from '#platform/redis.js';

/**
 * Shops retry a webhook for up to two days; a delivery is remembered that long, and a product
 * changed longer ago than that is not taken in: it can only be a replay.
 */
export const shopWebhookWindowMs = 48 * 3600 * 1000;

/** How a delivery is known: the SHA-256 of its signed bytes. */
export function deliveryDigest(raw: Buffer): string {
  return createHash('sha256').update(raw).digest('hex');
}

/**
 * Which shop webhooks were taken in already. Only the body is signed (`X-Shop-Webhook-Id` is not),
 * so a delivery is known by the digest of its bytes: a captured delivery sent again with a fresh id
 * is the same delivery.
 */
export function createShopWebhookReplays(redis: RedisClient, prefix: string, windowMs = shopWebhookWindowMs) {
  const key = (connectorId: string, digest: string) => `${prefix}:shop-webhook-seen:${connectorId}:${digest}`;
  return tagUnavailable('redis', {
    async wasTakenIn(connectorId: string, digest: string): Promise<boolean> {
      return (await redis.exists(key(connectorId, digest))) === 1;
    },

    /** Marked once the delivery is durably with its workflow, never before, so a failure half-way loses nothing. */
    async markTakenIn(connectorId: string, digest: string): Promise<void> {
      await redis.set(key(connectorId, digest), '1', { PX: windowMs });
    },
  });
}

export type ShopWebhookReplays = ReturnType<typeof createShopWebhookReplays>;
