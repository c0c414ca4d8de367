import type { RedisClient } from './redis.js';
import { SecretBoxError, type SecretBox } from './secret-box.js';

/** Replaces each field only if it still holds the value that was read, so a concurrent change wins. */
const resealScript = `
for i = 1, #ARGV, 3 do
  if redis.call('HGET', KEYS[1], ARGV[i]) == ARGV[i + 1] then redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 2]) end
end
return 0`;

/**
 * Secrets kept sealed inside a record's Redis hash: `fields` maps each secret's name to the hash field
 * that holds it sealed. Every value is bound (the box's associated data) to `<tenantId>:<recordId>:<name>`,
 * so a sealed value copied into another record or another field no longer opens.
 */
export function sealedFields<Name extends string>(redis: RedisClient, box: SecretBox, fields: Record<Name, string>) {
  const names = Object.keys(fields) as Name[];
  const binding = (record: SealedRecord, name: Name) => `${record.tenantId}:${record.id}:${name}`;

  return {
    /** The hash fields to write: each given secret sealed, absent ones as ''. */
    seal(record: SealedRecord, secrets: Partial<Record<Name, string>>): Record<string, string> {
      const hash: Record<string, string> = {};
      for (const name of names) {
        const value = secrets[name];
        hash[fields[name]] = value === undefined ? '' : box.seal(value, binding(record, name));
      }
      return hash;
    },

    /**
     * The record's secrets, opened. Values sealed with a previous key are sealed again with the current
     * one and written back, which is what lets an old key be retired (see secret-box.ts). Undefined when
     * the hash holds no record; a value that cannot be opened throws SecretBoxError.
     */
    async open(key: string, id: string): Promise<Partial<Record<Name, string>> | undefined> {
      const [tenantId, ...stored] = await redis.hmGet(key, ['tenantId', ...names.map((name) => fields[name])]);
      if (!tenantId) return undefined;
      const record = { id, tenantId };
      const secrets: Partial<Record<Name, string>> = {};
      const reseal: string[] = [];
      names.forEach((name, i) => {
        const sealed = stored[i];
        if (!sealed) return;
        const value = box.open(sealed, binding(record, name));
        secrets[name] = value;
        if (box.needsResealing(sealed)) reseal.push(fields[name], sealed, box.seal(value, binding(record, name)));
      });
      if (reseal.length > 0) await redis.eval(resealScript, { keys: [key], arguments: reseal });
      return secrets;
    },

    /**
     * Opens every record stored at `keyOf(id)` (which re-seals what an earlier key sealed) and names
     * the records that cannot be opened. Once none is named, the previous keys can be retired, even
     * for records nobody has read since the key changed.
     */
    async resealAll(keyOf: (id: string) => string): Promise<ResealReport> {
      const base = keyOf('');
      const report: ResealReport = { records: 0, unopened: [] };
      for await (const key of redis.scanIterator({ MATCH: `${base}*`, COUNT: 500 })) {
        const id = key.slice(base.length);
        if (id.includes(':')) continue; // a key beside the record (`…:<id>:sync`), not the record
        report.records++;
        try {
          await this.open(key, id);
        } catch (error) {
          if (!(error instanceof SecretBoxError)) throw error;
          report.unopened.push({ id, reason: error.reason });
        }
      }
      return report;
    },
  };
}

export interface ResealReport {
  records: number;
  unopened: Array<{ id: string; reason: string }>;
}

interface SealedRecord {
  id: string;
  tenantId: string;
}
