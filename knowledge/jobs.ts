import { tagUnavailable } from '#platform/dependency-errors.js';
import type { RedisClient } from '#platform/redis.js';

export const jobStatuses = ['queued', 'processing', 'searchable', 'skipped', 'metadata_updated', 'failed', 'deleted'] as const;
export type JobStatus = (typeof jobStatuses)[number];

export interface Job {
  jobId: string;
  status: JobStatus;
  knowledgeBaseId: string;
  updatedAt: string;
  error?: { code: string; message: string };
}

/**
 * The status of each ingestion job, as a Redis hash per tenant and job id, with the time of the
 * last change and, when it failed, why. Fails with a DependencyUnavailableError when Redis is down.
 */
export function createJobStore(redis: RedisClient, prefix: string, now: () => Date = () => new Date()) {
  const key = (tenantId: string, jobId: string) => `${prefix}:job:${tenantId}:${jobId}`;

  return tagUnavailable('redis', {
    async get(tenantId: string, jobId: string): Promise<Job | undefined> {
      const fields = await redis.hGetAll(key(tenantId, jobId));
      if (!fields.status) return undefined;
      return {
        jobId,
        status: fields.status as JobStatus,
        knowledgeBaseId: fields.knowledgeBaseId ?? '',
        updatedAt: fields.updatedAt ?? '',
        ...(fields.errorCode ? { error: { code: fields.errorCode, message: fields.errorMessage ?? '' } } : {}),
      };
    },

    async set(
      tenantId: string,
      jobId: string,
      change: { status: JobStatus; knowledgeBaseId: string; error?: { code: string; message: string } },
    ) {
      const fields = { status: change.status, knowledgeBaseId: change.knowledgeBaseId, updatedAt: now().toISOString() };
      const multi = redis.multi().hSet(key(tenantId, jobId), fields);
      if (change.error) multi.hSet(key(tenantId, jobId), { errorCode: change.error.code, errorMessage: change.error.message });
      else multi.hDel(key(tenantId, jobId), ['errorCode', 'errorMessage']);
      await multi.exec();
    },

    /** The raw record, to put back with `restore` when accepting a job fails half-way. */
    snapshot: (tenantId: string, jobId: string) => redis.hGetAll(key(tenantId, jobId)),

    async restore(tenantId: string, jobId: string, snapshot: Record<string, string>) {
      const multi = redis.multi().del(key(tenantId, jobId));
      if (Object.keys(snapshot).length > 0) multi.hSet(key(tenantId, jobId), snapshot);
      await multi.exec();
    },
  });
}

export type JobStore = ReturnType<typeof createJobStore>;
