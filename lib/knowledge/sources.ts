import { tagUnavailable } from '#platform/dependency-errors.js';
import type { RedisClient } from '#platform/redis.js';
import type { EmbeddingSpace } from './embeddings/index.js';

/**
 * What the service knows of one ingested item besides its chunks: where it is, which generation of
 * chunks is current, and the metadata that changes without re-embedding.
 */
export interface SourceRecord {
  integrationId: string;
  externalId: string;
  knowledgeBaseId: string;
  sourceType: string;
  /** '' when the item has no origin tag. */
  sourceOrigin: string;
  title: string;
  url: string | null;
  metadata: Record<string, unknown> | null;
  sourceData: Record<string, unknown> | null;
  hash: string | null;
  /** The generation of chunks searches may return; chunks of any other generation are stale. */
  generation: string;
  chunkCount: number;
  embeddingProvider: string;
  embeddingModel: string;
  /** Absent in records written before it was recorded: their space is known by provider and model only. */
  embeddingDimensions?: number;
  updatedAt: string;
}

export type SourceMetadata = Pick<SourceRecord, 'url' | 'metadata' | 'sourceData'>;

/** Where a source is and which embedding space its current chunks are in, without its metadata. */
export type SourcePlace = Pick<
  SourceRecord,
  'knowledgeBaseId' | 'sourceType' | 'embeddingProvider' | 'embeddingModel' | 'embeddingDimensions'
>;

const placeFields = ['generation', 'knowledgeBaseId', 'sourceType', 'embeddingProvider', 'embeddingModel', 'embeddingDimensions'];

/** Whether a source's current chunks are in `space` (for an older record, without dimensions: its provider and model). */
export function isEmbeddedIn(place: Omit<SourcePlace, 'knowledgeBaseId' | 'sourceType'>, space: EmbeddingSpace): boolean {
  return (
    place.embeddingProvider === space.provider &&
    place.embeddingModel === space.model &&
    (place.embeddingDimensions === undefined || place.embeddingDimensions === space.dimensions)
  );
}

/** A position in a listing of a knowledge base's sources: its origin tags (found at the start), one of them, and the scan in it. */
interface ListingPosition {
  origins: string[];
  origin: number;
  scan: number;
}

/**
 * Source records as Redis hashes, with a set per knowledge base and origin tag for cleanup. Every
 * change of a record and of its index entries is one MULTI, so they never disagree.
 */
export function createSourceStore(redis: RedisClient, prefix: string) {
  const recordKey = (tenantId: string, sourceKey: string) => `${prefix}:source:${tenantId}:${sourceKey}`;
  const originKey = (tenantId: string, knowledgeBaseId: string, origin: string) =>
    `${prefix}:origin:${tenantId}:${knowledgeBaseId}:${origin}`;

  return tagUnavailable('redis', {
    async get(tenantId: string, sourceKey: string): Promise<SourceRecord | undefined> {
      return decode(await redis.hGetAll(recordKey(tenantId, sourceKey)));
    },

    /** Records in the order of `sourceKeys`, undefined where there is none. */
    async getMany(tenantId: string, sourceKeys: string[]): Promise<Array<SourceRecord | undefined>> {
      if (sourceKeys.length === 0) return [];
      const multi = redis.multi();
      for (const sourceKey of sourceKeys) multi.hGetAll(recordKey(tenantId, sourceKey));
      const replies = (await multi.exec()) as unknown as Array<Record<string, string>>;
      return replies.map(decode);
    },

    /** Makes `record` the source's current state, moving its index entry if its place changed. */
    async commit(tenantId: string, sourceKey: string, record: SourceRecord, previous?: SourceRecord): Promise<void> {
      const multi = redis.multi().del(recordKey(tenantId, sourceKey)).hSet(recordKey(tenantId, sourceKey), encode(record));
      if (previous && (previous.knowledgeBaseId !== record.knowledgeBaseId || previous.sourceOrigin !== record.sourceOrigin)) {
        multi.sRem(originKey(tenantId, previous.knowledgeBaseId, previous.sourceOrigin), sourceKey);
      }
      multi.sAdd(originKey(tenantId, record.knowledgeBaseId, record.sourceOrigin), sourceKey);
      await multi.exec();
    },

    /** Replaces url, metadata and sourceData; a null removes the field. */
    async updateMetadata(tenantId: string, sourceKey: string, metadata: SourceMetadata, updatedAt: string): Promise<void> {
      const cleared = Object.entries(metadata)
        .filter(([, value]) => value === null)
        .map(([name]) => name);
      const multi = redis.multi().hSet(recordKey(tenantId, sourceKey), encode({ ...metadata, updatedAt }));
      if (cleared.length > 0) multi.hDel(recordKey(tenantId, sourceKey), cleared);
      await multi.exec();
    },

    async remove(tenantId: string, sourceKey: string, record: SourceRecord): Promise<void> {
      await redis
        .multi()
        .del(recordKey(tenantId, sourceKey))
        .sRem(originKey(tenantId, record.knowledgeBaseId, record.sourceOrigin), sourceKey)
        .exec();
    },

    /**
     * About `count` source keys of one origin tag, scanned from `cursor` ('0' to begin), and the
     * cursor to go on from ('0' after the last). Keys present for the whole scan are listed at least
     * once (a Redis scan may list one twice); keys removed meanwhile may be left out.
     */
    async scanOrigin(
      tenantId: string,
      knowledgeBaseId: string,
      origin: string,
      { cursor, count }: { cursor: string; count: number },
    ): Promise<{ sourceKeys: string[]; cursor: string }> {
      const reply = await redis.sScan(originKey(tenantId, knowledgeBaseId, origin), Number(cursor), { COUNT: count });
      return { sourceKeys: reply.members, cursor: String(reply.cursor) };
    },

    /** The source keys of a knowledge base that carry exactly this origin tag. */
    listByOrigin(tenantId: string, knowledgeBaseId: string, origin: string): Promise<string[]> {
      return redis.sMembers(originKey(tenantId, knowledgeBaseId, origin));
    },

    /** The places of the sources, in the order of `sourceKeys`, undefined where there is none. */
    async getPlaces(tenantId: string, sourceKeys: string[]): Promise<Array<SourcePlace | undefined>> {
      if (sourceKeys.length === 0) return [];
      const multi = redis.multi();
      for (const sourceKey of sourceKeys) multi.hmGet(recordKey(tenantId, sourceKey), placeFields);
      const replies = (await multi.exec()) as unknown as Array<Array<string | null>>;
      return replies.map((values) =>
        decode(Object.fromEntries(placeFields.flatMap((name, i) => (values[i] == null ? [] : [[name, values[i]]])))),
      );
    },

    /**
     * About `count` source keys of a knowledge base, origin tag by origin tag, and the cursor of the
     * next page (none after the last). Keys present for the whole listing are listed at least once
     * (a Redis scan may list one twice); keys added meanwhile may be left out.
     */
    async listPage(
      tenantId: string,
      knowledgeBaseId: string,
      { cursor, count }: { cursor?: string; count: number },
    ): Promise<{ sourceKeys: string[]; cursor?: string }> {
      const position: ListingPosition = cursor
        ? JSON.parse(cursor)
        : { origins: await originsOf(tenantId, knowledgeBaseId), origin: 0, scan: 0 };
      const sourceKeys: string[] = [];
      while (position.origin < position.origins.length && sourceKeys.length < count) {
        const key = originKey(tenantId, knowledgeBaseId, position.origins[position.origin]!);
        const reply = await redis.sScan(key, position.scan, { COUNT: count });
        sourceKeys.push(...reply.members);
        position.scan = reply.cursor;
        if (reply.cursor === 0) position.origin += 1;
      }
      return position.origin < position.origins.length ? { sourceKeys, cursor: JSON.stringify(position) } : { sourceKeys };
    },
  });

  /** The origin tags in use in a knowledge base (each has a set; an empty set is no key), in a stable order. */
  async function originsOf(tenantId: string, knowledgeBaseId: string): Promise<string[]> {
    const start = originKey(tenantId, knowledgeBaseId, '');
    const origins = new Set<string>();
    for await (const key of redis.scanIterator({ MATCH: `${escapeGlob(start)}*`, COUNT: 1000 })) {
      origins.add(key.slice(start.length));
    }
    return [...origins].sort();
  }
}

/** `text` matched literally by a Redis glob pattern. */
function escapeGlob(text: string): string {
  return text.replace(/[*?[\]\\]/g, '\\$&');
}

export type SourceStore = ReturnType<typeof createSourceStore>;

const jsonFields = new Set(['metadata', 'sourceData']);
const nullableFields = new Set(['url', 'metadata', 'sourceData', 'hash']);

/** Hash fields are strings: JSON for objects, absent for null. */
function encode(record: Partial<SourceRecord>): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [name, value] of Object.entries(record)) {
    if (value === null || value === undefined) continue;
    fields[name] = jsonFields.has(name) ? JSON.stringify(value) : String(value);
  }
  return fields;
}

function decode(fields: Record<string, string> | undefined): SourceRecord | undefined {
  if (!fields?.generation) return undefined;
  const record: Record<string, unknown> = { ...fields, chunkCount: Number(fields.chunkCount ?? 0) };
  if (fields.embeddingDimensions !== undefined) record.embeddingDimensions = Number(fields.embeddingDimensions);
  for (const name of nullableFields) {
    const value = fields[name];
    record[name] = value === undefined ? null : jsonFields.has(name) ? JSON.parse(value) : value;
  }
  return record as unknown as SourceRecord;
}
