import { randomUUID } from 'node:crypto';
import { tagUnavailable } from '#platform/dependency-errors.js';
import type { RedisClient } from '#platform/redis.js';
import type { DocumentKind } from '../documents/types.js';
import { connectorKeys } from '../redis-keys.js';

/**
 * Where an uploaded file is: its latest upload `queued` for the worker, being `read`, `ingested` (its
 * passages handed to the ingestion API), `failed` (refused, with the reason; the version ingested
 * before, if any, stays), or being `removing` from the knowledge base.
 */
export const fileStatuses = ['queued', 'reading', 'ingested', 'failed', 'removing'] as const;
export type FileStatus = (typeof fileStatuses)[number];

/** The version of a file the knowledge base holds. */
export interface IngestedVersion {
  sha256: string;
  kind: DocumentKind;
  /** Items (passages' sources) it became: one per section, one per page of a PDF. */
  items: number;
  /** PDF: its page count. */
  pages?: number;
  ingestedAt: string;
}

/** One file of a files source: its latest upload, and what of it the knowledge base holds. */
export interface UploadedFile {
  id: string;
  connectorId: string;
  /** The file's name as uploaded: what it is known and cited by. */
  name: string;
  /** The latest upload: its size, SHA-256, declared content type and time. */
  size: number;
  sha256: string;
  contentType: string | null;
  uploadedAt: string;
  status: FileStatus;
  ingested: IngestedVersion | null;
  /** Why the latest upload was refused (status `failed`). */
  error?: { code: string; message: string; at: string };
  /** Where the latest upload's bytes wait for the worker, until it has read them. */
  stagingId?: string;
}

export interface NewUpload {
  name: string;
  size: number;
  sha256: string;
  contentType: string | null;
  stagingId: string;
}

/**
 * What an upload did: a `new` file, a new `version` of a file of that name, or nothing at all
 * (`unchanged`: a file of the source already has these bytes), in which case its staging is not needed.
 */
export type UploadOutcome = 'new' | 'version' | 'unchanged';

export class FileLimitError extends Error {
  constructor(readonly maxFiles: number) {
    super(`This source has ${maxFiles} files, the most it may have: delete one, or add another files source.`);
    this.name = 'FileLimitError';
  }
}

// Replaces (or with an empty value deletes) a field only when it still holds what was read: a record
// changed meanwhile (an upload while the worker reads the last one) is read again, never overwritten.
const compareAndSet = `
if redis.call('HGET', KEYS[1], ARGV[1]) ~= ARGV[2] then return 0 end
if ARGV[3] == '' then redis.call('HDEL', KEYS[1], ARGV[1]) else redis.call('HSET', KEYS[1], ARGV[1], ARGV[3]) end
return 1`;

/**
 * The files of each files source, in Redis: a record per file (JSON in a hash), and its id by name and
 * by the SHA-256 of its latest upload. Changes are compare-and-set, so the API (an upload) and the
 * worker (a file read) never overwrite each other's. A Redis that cannot be reached fails every
 * function with a DependencyUnavailableError.
 */
export function createFileRecords(redis: RedisClient, prefix: string, now: () => Date = () => new Date()) {
  const keys = connectorKeys(prefix);

  async function read(connectorId: string, fileId: string): Promise<{ raw: string; file: UploadedFile } | undefined> {
    const raw = await redis.hGet(keys.files(connectorId), fileId);
    return raw ? { raw, file: JSON.parse(raw) as UploadedFile } : undefined;
  }

  const swapped = async (connectorId: string, fileId: string, expected: string, next: string): Promise<boolean> =>
    (await redis.eval(compareAndSet, { keys: [keys.files(connectorId)], arguments: [fileId, expected, next] })) === 1;

  /** Drops a file's look-up by name (`names`) and by its upload's hash, where they still lead to it (and not to a file uploaded since). */
  async function forgetLookups(file: UploadedFile, { names }: { names: boolean }): Promise<void> {
    const [byName, byHash] = await Promise.all([
      names ? redis.hGet(keys.fileNames(file.connectorId), file.name) : undefined,
      redis.hGet(keys.fileHashes(file.connectorId), file.sha256),
    ]);
    const multi = redis.multi();
    if (byName === file.id) multi.hDel(keys.fileNames(file.connectorId), file.name);
    if (byHash === file.id) multi.hDel(keys.fileHashes(file.connectorId), file.sha256);
    await multi.exec();
  }

  const records = {
    async get(connectorId: string, fileId: string): Promise<UploadedFile | undefined> {
      return (await read(connectorId, fileId))?.file;
    },

    /** A source's files, by name. */
    async list(connectorId: string): Promise<UploadedFile[]> {
      const all = Object.values(await redis.hGetAll(keys.files(connectorId))).map((raw) => JSON.parse(raw) as UploadedFile);
      return all.sort((a, b) => a.name.localeCompare(b.name) || a.uploadedAt.localeCompare(b.uploadedAt));
    },

    count: (connectorId: string): Promise<number> => redis.hLen(keys.files(connectorId)),

    /**
     * Records an upload. Bytes a file of the source already has (the same name, or another) change
     * nothing (`unchanged`), unless they were refused; a name the source has is a new `version` of that file; else a `new` file,
     * unless the source has `maxFiles` already (FileLimitError). Of two uploads of one name at once, the
     * later one recorded is the file's latest upload; a new name is claimed by one file only.
     */
    async accept(
      connectorId: string,
      upload: NewUpload,
      maxFiles: number,
    ): Promise<{ file: UploadedFile; outcome: UploadOutcome; replacedStagingId?: string }> {
      for (;;) {
        const [idByName, idByHash] = await Promise.all([
          redis.hGet(keys.fileNames(connectorId), upload.name),
          redis.hGet(keys.fileHashes(connectorId), upload.sha256),
        ]);
        const [named, sameBytes] = await Promise.all([
          idByName ? read(connectorId, idByName) : undefined,
          idByHash ? read(connectorId, idByHash) : undefined,
        ]);
        const current = named && named.file.status !== 'removing' ? named : undefined;
        // Bytes refused before are read again: the refusal may have been ours (a reader's bug, a thread out of time).
        const holds = (file: UploadedFile) => file.sha256 === upload.sha256 && file.status !== 'failed' && file.status !== 'removing';
        if (current && holds(current.file)) return { file: current.file, outcome: 'unchanged' };
        if (!current && sameBytes && holds(sameBytes.file)) return { file: sameBytes.file, outcome: 'unchanged' };
        const file: UploadedFile = {
          id: current?.file.id ?? randomUUID(),
          connectorId,
          ...upload,
          uploadedAt: now().toISOString(),
          status: 'queued',
          ingested: current?.file.ingested ?? null,
        };
        if (current) {
          if (!(await swapped(connectorId, file.id, current.raw, JSON.stringify(file)))) continue;
          // The old bytes are no longer this file's (its name still is).
          if (current.file.sha256 !== file.sha256) await forgetLookups(current.file, { names: false });
        } else {
          if ((await records.count(connectorId)) >= maxFiles) throw new FileLimitError(maxFiles);
          await redis.hSet(keys.files(connectorId), file.id, JSON.stringify(file));
          // A name nobody has is claimed; one taken meanwhile (or by a file being removed) is claimed by replacing exactly that.
          const claimed = idByName
            ? await redis.eval(compareAndSet, { keys: [keys.fileNames(connectorId)], arguments: [upload.name, idByName, file.id] })
            : await redis.hSetNX(keys.fileNames(connectorId), upload.name, file.id);
          if (!claimed) {
            await redis.hDel(keys.files(connectorId), file.id);
            continue;
          }
        }
        await redis.hSet(keys.fileHashes(connectorId), file.sha256, file.id);
        return { file, outcome: current ? 'version' : 'new', ...(current?.file.stagingId ? { replacedStagingId: current.file.stagingId } : {}) };
      }
    },

    /**
     * Changes a file as `change` says, given its record as it is now (read again while another change
     * wins the race); `change` returning undefined changes nothing. Resolves to the record as left.
     */
    async update(
      connectorId: string,
      fileId: string,
      change: (file: UploadedFile) => UploadedFile | undefined,
    ): Promise<UploadedFile | undefined> {
      for (;;) {
        const found = await read(connectorId, fileId);
        if (!found) return undefined;
        const next = change(found.file);
        if (!next) return found.file;
        if (await swapped(connectorId, fileId, found.raw, JSON.stringify(next))) return next;
      }
    },

    /** Marks a file for removal (the worker takes it out of the knowledge base, then forgets it). */
    markRemoving: (connectorId: string, fileId: string) =>
      records.update(connectorId, fileId, (file) => (file.status === 'removing' ? undefined : { ...file, status: 'removing' })),

    /** Forgets a file removed from the knowledge base, unless it was uploaded again meanwhile. */
    async forget(connectorId: string, fileId: string): Promise<void> {
      const found = await read(connectorId, fileId);
      if (!found || found.file.status !== 'removing') return;
      if (await swapped(connectorId, fileId, found.raw, '')) await forgetLookups(found.file, { names: true });
    },
  };
  return tagUnavailable('redis', records);
}

export type FileRecords = ReturnType<typeof createFileRecords>;

/** The origin tag of a file's items: each file is cleaned up on its own (a new version, a deletion). */
export const fileOrigin = (integrationId: string, fileId: string): string => `${integrationId}/${fileId}`;
