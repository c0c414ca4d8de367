import { Repository, Schema, type Entity, type SchemaDefinition } from 'redis-om';
import type { RedisClient } from '#platform/redis.js';

/** Reads and writes one kind of record, stored as a Redis hash under `<prefix>:<kind>:<id>`. */
export interface EntityStore<T extends { id: string }> {
  get(id: string): Promise<T | undefined>;
  /** The records that exist among `ids`, in the order given. */
  getMany(ids: string[]): Promise<T[]>;
  save(record: T): Promise<T>;
}

/**
 * A typed store over a redis-om repository. Only look-ups by id go through redis-om (this Redis
 * has no search module); every other access path is a plain Redis index kept beside the record.
 * Absent fields come back as null, so records read back exactly as they were written.
 */
export function createEntityStore<T extends { id: string }>(
  redis: RedisClient,
  schemaName: string,
  fields: SchemaDefinition,
): EntityStore<T> {
  const repository = new Repository(new Schema(schemaName, fields, { dataStructure: 'HASH' }), redis);
  const names = Object.keys(fields);

  const toRecord = (id: string, entity: Entity): T | undefined => {
    if (Object.keys(entity).length === 0) return undefined;
    const record: Record<string, unknown> = { id };
    for (const name of names) record[name] = entity[name] ?? null;
    return record as T;
  };

  return {
    async get(id) {
      return toRecord(id, await repository.fetch(id));
    },
    async getMany(ids) {
      if (ids.length === 0) return [];
      const entities = await repository.fetch(ids);
      return ids.map((id, i) => toRecord(id, entities[i]!)).filter((record): record is T => record !== undefined);
    },
    async save(record) {
      const { id, ...data } = record;
      await repository.save(id, data as Entity);
      return record;
    },
  };
}
