import { createHash, randomUUID } from 'node:crypto';
import { commandOptions } from 'redis';
import { tagUnavailable } from '#platform/dependency-errors.js';
import type { RedisClient } from '#platform/redis.js';
import { connectorKeys } from '../redis-keys.js';

/** How long an upload waits for the worker at most: a week of a worker down, then it is gone. */
export const stagingTtlSeconds = 7 * 24 * 3_600;

/** The bytes of an upload are written in chunks of this size: the API holds about one chunk of a file at a time. */
const chunkBytes = 256 * 1024;

/** Lists are read back this many chunks a call (4 MiB), not in one reply of the whole file. */
const chunksPerRead = 16;

/** An upload longer than the limit: nothing of it is kept. */
export class UploadTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`The file is larger than the limit of ${maxBytes} bytes (maxBytes).`);
    this.name = 'UploadTooLargeError';
  }
}

export interface StagedUpload {
  stagingId: string;
  size: number;
  sha256: string;
}

/**
 * Where an upload waits between the API that took it and the worker that reads it: in Redis, as a
 * list of 256 KiB chunks under a TTL (a week), deleted once read. The API streams a file in as it
 * arrives (hashing it on the way), so its memory holds a chunk or two whatever the file's size; the
 * original is not kept once read (docs/sources.md). A Redis that cannot be reached fails every
 * function with a DependencyUnavailableError.
 */
export function createUploadStaging(redis: RedisClient, prefix: string) {
  const keys = connectorKeys(prefix);

  const staging = {
    /**
     * Writes `bytes` (a stream of chunks, read as they come) to a new staging place; more than
     * `maxBytes` is an UploadTooLargeError, and what was written of it is deleted, as on any failure.
     */
    async stage(connectorId: string, bytes: AsyncIterable<Uint8Array>, maxBytes: number): Promise<StagedUpload> {
      const stagingId = randomUUID();
      const key = keys.staged(connectorId, stagingId);
      const hash = createHash('sha256');
      let size = 0;
      let pending = Buffer.alloc(0);
      const push = (chunk: Buffer) => redis.multi().rPush(key, chunk).expire(key, stagingTtlSeconds).exec();
      try {
        for await (const piece of bytes) {
          size += piece.byteLength;
          if (size > maxBytes) throw new UploadTooLargeError(maxBytes);
          hash.update(piece);
          pending = Buffer.concat([pending, piece]);
          for (; pending.byteLength >= chunkBytes; pending = pending.subarray(chunkBytes)) await push(pending.subarray(0, chunkBytes));
        }
        if (pending.byteLength > 0) await push(pending);
      } catch (error) {
        await redis.del(key).catch(() => undefined);
        throw error;
      }
      return { stagingId, size, sha256: hash.digest('hex') };
    },

    /** The staged bytes, whole; undefined when they are gone (read and discarded, or expired). */
    async read(connectorId: string, stagingId: string): Promise<Buffer | undefined> {
      const key = keys.staged(connectorId, stagingId);
      const chunks: Buffer[] = [];
      for (let start = 0; ; start += chunksPerRead) {
        const some = await redis.lRange(commandOptions({ returnBuffers: true }), key, start, start + chunksPerRead - 1);
        chunks.push(...some);
        if (some.length < chunksPerRead) break;
      }
      return chunks.length > 0 ? Buffer.concat(chunks) : undefined;
    },

    async discard(connectorId: string, stagingId: string): Promise<void> {
      await redis.del(keys.staged(connectorId, stagingId));
    },
  };
  return tagUnavailable('redis', staging);
}

export type UploadStaging = ReturnType<typeof createUploadStaging>;
