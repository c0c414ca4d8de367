/**
 * The Lua scripts that write the article store atomically, and how they are called: a record write
 * guarded by its revision and slug with every index change it implies, and the entry-point
 * matched and clicked counts. Also the retry pacing for writes that a concurrent write got in before.
 */
import type { RedisClient } from '#platform/redis.js';
import { runScript } from '#platform/redis-scripts.js';

/**
 * Tries of a write that a concurrent write of the same record (or of the same slug) got in before;
 * each lost try means another write succeeded, and a short random pause spreads the next ones.
 */
export const writeAttempts = 100;

/** Up to a few milliseconds, more after each lost try. */
export function pause(attempt: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(20, 1 + attempt)));
}

export interface WriteSpec {
  /** The record's key and the `revision` it must still have ('' for none: the record must not exist). */
  guard: [string, string];
  /** The slug index, the slug and the id that is to hold it: it must be free or already the id's. */
  claim?: [string, string, string];
  commands: string[][];
  /** The popularity set and the entry points to rank in it again by their stored `matched` count. */
  popular?: [string, string[][]];
}

// The keys are in ARGV rather than KEYS, which is fine on the one Redis server this service uses.
const writeScript = `
local spec = cjson.decode(ARGV[1])
if (redis.call('HGET', spec.guard[1], 'revision') or '') ~= spec.guard[2] then return 0 end
if spec.claim then
  local holder = redis.call('HGET', spec.claim[1], spec.claim[2])
  if holder and holder ~= spec.claim[3] then return -1 end
end
for _, command in ipairs(spec.commands) do redis.call(unpack(command)) end
if spec.popular then
  for _, entry in ipairs(spec.popular[2]) do
    local matched = tonumber(redis.call('HGET', entry[1], 'matched') or '0')
    if matched > 0 then redis.call('ZADD', spec.popular[1], matched, entry[2]) end
  end
end
return 1
`;

/** Applies `spec.commands` only if the guard and the slug claim hold; 'stale' or 'slug_taken' when not. */
export async function writeRecord(redis: RedisClient, spec: WriteSpec): Promise<'written' | 'stale' | 'slug_taken'> {
  const result = Number(await runScript(redis, writeScript, [], [JSON.stringify(spec)]));
  return result === 1 ? 'written' : result === -1 ? 'slug_taken' : 'stale';
}

const recordMatchedScript = `
if redis.call('HEXISTS', KEYS[2], ARGV[1]) == 0 then return 0 end
local matched = redis.call('HINCRBY', KEYS[1], 'matched', 1)
redis.call('ZADD', KEYS[3], matched, ARGV[1])
return matched
`;

/**
 * Counts a match of the entry point and ranks it by its count, only if `publicEntryPointsKey` holds
 * it; the new count, or 0 when nothing was recorded.
 */
export async function incrementMatched(
  redis: RedisClient,
  {
    entryPointKey,
    publicEntryPointsKey,
    popularKey,
  }: { entryPointKey: string; publicEntryPointsKey: string; popularKey: string },
  entryPointId: string,
): Promise<number> {
  const keys = [entryPointKey, publicEntryPointsKey, popularKey];
  return Number(await runScript(redis, recordMatchedScript, keys, [entryPointId]));
}

const recordClickedScript = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
return redis.call('HINCRBY', KEYS[1], 'clicked', 1)
`;

/** Counts a click on the entry point stored at `entryPointKey`; the new count, or 0 when there is none. */
export async function incrementClicked(redis: RedisClient, entryPointKey: string): Promise<number> {
  return Number(await runScript(redis, recordClickedScript, [entryPointKey], []));
}
