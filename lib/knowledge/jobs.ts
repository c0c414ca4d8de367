import { tagUnavailable } from '#platform/dependency-errors.js';
import type { RedisClient } from '#platform/redis.js';

export const jobStatuses = ['queued', 'processing', 'searchable', 'skipped', 'metadata_updated', 'failed', 'deleted'] as const;
export type JobStatus = (typeof jobStatuses)[number];

/**
 * Told of every change of a job's status (the metrics): `queued` once Temporal has an accepted version,
 * each later status when it changes; `sinceAcceptedMs` is how long ago the version was accepted
 * (unknown for jobs accepted before that was recorded).
 */
export interface JobObserver {
  changed(status: JobStatus, sinceAcceptedMs: number | undefined): void;
}

const unobserved: JobObserver = { changed: () => undefined };

export interface Job {
  jobId: string;
  status: JobStatus;
  knowledgeBaseId: string;
  updatedAt: string;
  error?: { code: string; message: string };
}

/** What `accept` hands back: the version's generation, and the record it replaced. */
export interface Accepted {
  generation: number;
  previous: Record<string, string>;
}

/** The field counting generations handed out; `generation` is the one current (put back by `restore`). */
const generationCounter = 'generations';

const acceptScript = `
local previous = redis.call('HGETALL', KEYS[1])
local generation = redis.call('HINCRBY', KEYS[1], '${generationCounter}', 1)
redis.call('HSET', KEYS[1], 'status', 'queued', 'knowledgeBaseId', ARGV[1], 'updatedAt', ARGV[2], 'acceptedAt', ARGV[2], 'generation', generation)
redis.call('HDEL', KEYS[1], 'errorCode', 'errorMessage')
return {generation, previous}`;

// Answers 0 when a newer version was accepted; else whether the status changed, and when the
// version was accepted ('' for a job accepted before that was recorded).
const setScript = `
if ARGV[1] ~= '' then
  local current = tonumber(redis.call('HGET', KEYS[1], 'generation') or '0')
  if current > tonumber(ARGV[1]) then return 0 end
end
local before = redis.call('HGET', KEYS[1], 'status')
redis.call('HSET', KEYS[1], 'status', ARGV[2], 'knowledgeBaseId', ARGV[3], 'updatedAt', ARGV[4])
if ARGV[5] ~= '' then redis.call('HSET', KEYS[1], 'errorCode', ARGV[5], 'errorMessage', ARGV[6])
else redis.call('HDEL', KEYS[1], 'errorCode', 'errorMessage') end
return {before == ARGV[2] and 0 or 1, redis.call('HGET', KEYS[1], 'acceptedAt') or ''}`;

const restoreScript = `
if redis.call('HGET', KEYS[1], 'generation') ~= ARGV[1] or redis.call('HGET', KEYS[1], 'status') ~= 'queued' then return 0 end
local counter = redis.call('HGET', KEYS[1], '${generationCounter}')
redis.call('DEL', KEYS[1])
if #ARGV > 1 then redis.call('HSET', KEYS[1], unpack(ARGV, 2)) end
redis.call('HSET', KEYS[1], '${generationCounter}', counter)
return 1`;

/**
 * The status of each ingestion job, as a Redis hash per tenant and job id, with the time of the
 * last change and, when it failed, why. Fails with a DependencyUnavailableError when Redis is down.
 * Each accepted version has a generation; its activity's writes carry it and are dropped once a newer
 * version was accepted, so a status never goes back (finding F30 of the 2026-11 review).
 */
export function createJobStore(
  redis: RedisClient,
  prefix: string,
  { now = () => new Date(), observer = unobserved }: { now?: () => Date; observer?: JobObserver } = {},
) {
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

    /**
     * The API accepted a new version: the job is `queued` under a new generation (a counter that
     * only grows). Returns that generation, which travels with the version, and the record before,
     * for `restore`.
     */
    async accept(tenantId: string, jobId: string, knowledgeBaseId: string): Promise<Accepted> {
      const reply = (await redis.eval(acceptScript, {
        keys: [key(tenantId, jobId)],
        arguments: [knowledgeBaseId, now().toISOString()],
      })) as [number, string[]];
      const [generation, flat] = reply;
      const previous: Record<string, string> = {};
      for (let i = 0; i < flat.length; i += 2) previous[flat[i]!] = flat[i + 1]!;
      return { generation: Number(generation), previous };
    },

    /**
     * The accepted version is in its workflow (Temporal recorded it): counted as `queued` now, so an
     * accept that `restore` undid, answered 503, is never counted.
     */
    queued(): void {
      observer.changed('queued', 0);
    },

    /**
     * Writes the job's status, unless `generation` is given and a newer version was accepted since
     * (then nothing changes: the newer version's own activity writes next). True when written.
     */
    async set(
      tenantId: string,
      jobId: string,
      change: { status: JobStatus; knowledgeBaseId: string; error?: { code: string; message: string } },
      generation?: number,
    ): Promise<boolean> {
      const at = now();
      const written = (await redis.eval(setScript, {
        keys: [key(tenantId, jobId)],
        arguments: [
          generation === undefined ? '' : String(generation),
          change.status,
          change.knowledgeBaseId,
          at.toISOString(),
          change.error?.code ?? '',
          change.error?.message ?? '',
        ],
      })) as 0 | [number, string];
      if (written === 0) return false;
      const [changed, acceptedAt] = written;
      if (changed === 1) observer.changed(change.status, acceptedAt ? at.getTime() - Date.parse(acceptedAt) : undefined);
      return true;
    },

    /**
     * Accepting failed (Temporal away): puts the record from before `accept` back, unless the job has
     * moved on since (its version wrote a status, or another version was accepted). The counter of
     * generations stays where it is, so no generation is handed out twice.
     */
    async restore(tenantId: string, jobId: string, accepted: Accepted): Promise<void> {
      const { [generationCounter]: _counter, ...previous } = accepted.previous;
      await redis.eval(restoreScript, {
        keys: [key(tenantId, jobId)],
        arguments: [String(accepted.generation), ...Object.entries(previous).flat()],
      });
    },

    /** The generation of the version accepted last; undefined when none was accepted with one. */
    async generation(tenantId: string, jobId: string): Promise<number | undefined> {
      const value = await redis.hGet(key(tenantId, jobId), 'generation');
      return value ? Number(value) : undefined;
    },
  });
}

export type JobStore = ReturnType<typeof createJobStore>;
