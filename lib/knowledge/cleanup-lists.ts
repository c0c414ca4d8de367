import { createHash } from 'node:crypto';
import { tagUnavailable } from '#platform/dependency-errors.js';
import type { RedisClient } from '#platform/redis.js';

/** A cleanup's keep list is gone (expired, or never staged): nothing may be deleted by it. */
export class KeepListMissingError extends Error {
  constructor(cleanupId: string) {
    super(`The keep list of cleanup ${cleanupId} is no longer staged: send the cleanup again.`);
    this.name = 'KeepListMissingError';
  }
}

/** Ids added to Redis per command while staging a keep list. */
const stageBatch = 1_000;

/**
 * The id of a cleanup: a digest of what it asks (knowledge base, origin and the keep list as a set),
 * so the same request sent again names the same cleanup and attaches to it while it runs.
 */
export function cleanupIdOf(request: { knowledgeBaseId: string; sourceOrigin: string; keepExternalIds: string[] }): string {
  const keep = [...new Set(request.keepExternalIds)].sort();
  return createHash('sha256')
    .update(JSON.stringify([request.knowledgeBaseId, request.sourceOrigin, keep]))
    .digest('base64url')
    .slice(0, 32);
}

/**
 * What a cleanup works from and what it did, in Redis rather than in its workflow's input and
 * history (finding F16 of the 2026-11 review), so a cleanup of any size keeps both small: the keep
 * list, staged by the API under the cleanup's id, and the external ids each run deleted. Both expire
 * after `ttlSeconds`.
 */
export function createCleanupLists(redis: RedisClient, prefix: string, { ttlSeconds = 7 * 24 * 3600 } = {}) {
  const base = (tenantId: string, cleanupId: string) => `${prefix}:cleanup:${tenantId}:${cleanupId}`;
  const keepKey = (tenantId: string, cleanupId: string) => `${base(tenantId, cleanupId)}:keep`;
  /** Set beside the keep list: an empty list has no set in Redis, and a missing one must not mean "keep nothing". */
  const stagedKey = (tenantId: string, cleanupId: string) => `${base(tenantId, cleanupId)}:staged`;
  const deletedKey = (tenantId: string, cleanupId: string, run: string) => `${base(tenantId, cleanupId)}:${run}:deleted`;

  return tagUnavailable('redis', {
    /**
     * Stages the keep list (whole, or not at all: written aside, then renamed into place, so a cleanup
     * running with the same list never sees part of it).
     */
    async stage(tenantId: string, cleanupId: string, keepExternalIds: string[]): Promise<void> {
      const staging = `${base(tenantId, cleanupId)}:staging:${Math.random().toString(36).slice(2)}`;
      for (let i = 0; i < keepExternalIds.length; i += stageBatch)
        await redis.sAdd(staging, keepExternalIds.slice(i, i + stageBatch));
      const multi = redis.multi();
      if (keepExternalIds.length > 0)
        multi.rename(staging, keepKey(tenantId, cleanupId)).expire(keepKey(tenantId, cleanupId), ttlSeconds);
      else multi.del(keepKey(tenantId, cleanupId));
      await multi.set(stagedKey(tenantId, cleanupId), String(keepExternalIds.length), { EX: ttlSeconds }).exec();
    },

    /** For each external id, whether the cleanup keeps it; fails with KeepListMissingError when the list is gone. */
    async keeps(tenantId: string, cleanupId: string, externalIds: string[]): Promise<boolean[]> {
      const [staged, members] = await redis
        .multi()
        .exists(stagedKey(tenantId, cleanupId))
        .smIsMember(keepKey(tenantId, cleanupId), externalIds.length > 0 ? externalIds : [''])
        .exec();
      if (!staged) throw new KeepListMissingError(cleanupId);
      return externalIds.map((_, i) => Boolean((members as unknown as Array<boolean | number>)[i]));
    },

    /** Adds what a page of the cleanup deleted to its run's list. */
    async recordDeleted(tenantId: string, cleanupId: string, run: string, externalIds: string[]): Promise<void> {
      if (externalIds.length === 0) return;
      const key = deletedKey(tenantId, cleanupId, run);
      await redis.multi().rPush(key, externalIds).expire(key, ttlSeconds).exec();
    },

    /** What the run deleted, in the order it deleted them. */
    deleted: (tenantId: string, cleanupId: string, run: string): Promise<string[]> =>
      redis.lRange(deletedKey(tenantId, cleanupId, run), 0, -1),
  });
}

export type CleanupLists = ReturnType<typeof createCleanupLists>;
