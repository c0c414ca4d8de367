/**
 * Where a conversation that needs a person stands in the inbox's indexes, kept in the same step as its
 * record by Lua scripts: by team, by assignee (whose size is the agent's load), unassigned, and the team's
 * queue (waiting with no one assigned, oldest first: what is offered when an agent frees up). Each index
 * is a sorted set of conversation ids by their latest change (the queue: by when they joined it), so a
 * list reads one page of one index, however many conversations the tenant has. Keys are built in the
 * scripts from the tenant's base (the old team and assignee are only known there), which is fine on the
 * one Redis server this service uses.
 */
import type { RedisClient } from '#platform/redis.js';
import { runScript } from '#platform/redis-scripts.js';
import { conversationKeys } from './redis-keys.js';
import { searchChangeEntry } from './search/changes.js';

/** The team key part of conversations routed to no team: the tenant's common queue. */
export const noTeam = 'none';

// The indexes a conversation belongs in, given its status, team and assignee; and `move`, which writes
// the record's fields (a flat list of names and values) and moves the conversation from the indexes of
// its old fields to those of its new ones. KEYS[2] is the older index of every conversation that needs
// a person (`needingPerson`), kept here too.
const placementHelpers = `
local function indexesOf(base, status, teamId, assigneeId)
  local keys = {}
  if status ~= 'waiting_for_agent' and status ~= 'agent' then return keys end
  local team = teamId ~= '' and teamId or '${noTeam}'
  keys[base .. ':team:' .. team] = 'latest'
  if assigneeId ~= '' then
    keys[base .. ':assignee:' .. assigneeId] = 'latest'
  else
    keys[base .. ':unassigned'] = 'latest'
    if status == 'waiting_for_agent' then keys[base .. ':queue:' .. team] = 'first' end
  end
  return keys
end
local function fieldsOf(recordKey)
  local values = redis.call('HMGET', recordKey, 'status', 'teamId', 'assigneeId')
  return values[1] or '', values[2] or '', values[3] or ''
end
local function move(recordKey, needingKey, base, id, score, fields, changedKey, changedMember)
  local before = indexesOf(base, fieldsOf(recordKey))
  if #fields > 0 then redis.call('HSET', recordKey, unpack(fields)) end
  local status, teamId, assigneeId = fieldsOf(recordKey)
  local after = indexesOf(base, status, teamId, assigneeId)
  for key in pairs(before) do
    if not after[key] then redis.call('ZREM', key, id) end
  end
  for key, order in pairs(after) do
    if order == 'first' then redis.call('ZADD', key, 'NX', score, id) else redis.call('ZADD', key, score, id) end
  end
  if status == 'waiting_for_agent' or status == 'agent' then
    redis.call('ZADD', needingKey, score, id)
  else
    redis.call('ZREM', needingKey, id)
  end
  -- The search index takes the change in (lib/conversations/search/changes.ts), marked in the same step.
  redis.call('ZADD', changedKey, 'LT', score, changedMember)
end
`;

// KEYS: the record, the needing-person index, the search's changed set. ARGV: base, id, score (epoch ms),
// the change's member in the changed set, then field names and values.
const moveScript = `${placementHelpers}
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local fields = {}
for i = 5, #ARGV do fields[#fields + 1] = ARGV[i] end
move(KEYS[1], KEYS[2], ARGV[1], ARGV[2], tonumber(ARGV[3]), fields, KEYS[3], ARGV[4])
return 1
`;

// KEYS: the record, the needing-person index, the search's changed set. ARGV: base, id, score (epoch ms),
// capacity, the same time in ISO 8601, the change's member in the changed set, then each candidate's id and name, in the order to prefer at equal load and turn.
// The least loaded candidate under capacity, among equals the one whose turn it is (given one longest
// ago), is assigned. A candidate already assigned is kept (the pick ran before, its answer was lost).
const pickScript = `${placementHelpers}
if redis.call('EXISTS', KEYS[1]) == 0 then return '' end
local base, id, score, capacity = ARGV[1], ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4])
local current = redis.call('HGET', KEYS[1], 'assigneeId') or ''
for i = 7, #ARGV, 2 do
  if ARGV[i] == current then return current end
end
local turns = base .. ':last-assigned'
local best, bestName, bestLoad, bestTurn
for i = 7, #ARGV, 2 do
  local candidate = ARGV[i]
  local load = redis.call('ZCARD', base .. ':assignee:' .. candidate)
  if load < capacity then
    local turn = tonumber(redis.call('HGET', turns, candidate) or '0')
    if not best or load < bestLoad or (load == bestLoad and turn < bestTurn) then
      best, bestName, bestLoad, bestTurn = candidate, ARGV[i + 1], load, turn
    end
  end
end
if not best then return '' end
redis.call('HSET', turns, best, score)
move(KEYS[1], KEYS[2], base, id, score, {'assigneeId', best, 'assigneeName', bestName, 'assignedAt', ARGV[5], 'updatedAt', ARGV[5]}, KEYS[3], ARGV[6])
return best
`;

export interface PlacementKeys {
  record: string;
  needingPerson: string;
  /** The tenant's inbox base (`conversationKeys(prefix).inbox(tenantId)`). */
  base: string;
  /** Where the conversation search hears of the change (`searchChangeEntry`): its set and the member. */
  searchChange: { key: string; member: string };
}

/** The keys a conversation's placement touches. */
export function placementKeys(
  prefix: string,
  { conversationId, tenantId }: { conversationId: string; tenantId: string },
): PlacementKeys {
  const keys = conversationKeys(prefix);
  const change = searchChangeEntry(prefix, { tenantId, conversationId });
  return {
    record: keys.record(conversationId),
    needingPerson: keys.needingPerson(tenantId),
    base: keys.inbox(tenantId),
    searchChange: { key: change.key, member: change.value.value },
  };
}

/** Writes a record's fields and moves the conversation between the inbox's indexes; false when there is no record. */
export async function moveInInbox(
  redis: RedisClient,
  keys: PlacementKeys,
  conversationId: string,
  at: number,
  fields: Record<string, string>,
): Promise<boolean> {
  const args = [keys.base, conversationId, String(at), keys.searchChange.member, ...Object.entries(fields).flat()];
  return (await runScript(redis, moveScript, [keys.record, keys.needingPerson, keys.searchChange.key], args)) === 1;
}

/**
 * Assigns the conversation to the least loaded candidate below `capacity` (their turn deciding among
 * equals), in one step with the indexes; the id assigned, or undefined when every one is full.
 */
export async function pickAssignee(
  redis: RedisClient,
  keys: PlacementKeys,
  conversationId: string,
  at: number,
  capacity: number,
  candidates: ReadonlyArray<{ id: string; name: string }>,
): Promise<string | undefined> {
  if (candidates.length === 0) return undefined;
  const args = [
    keys.base,
    conversationId,
    String(at),
    String(capacity),
    new Date(at).toISOString(),
    keys.searchChange.member,
    ...candidates.flatMap(({ id, name }) => [id, name]),
  ];
  const picked = (await runScript(redis, pickScript, [keys.record, keys.needingPerson, keys.searchChange.key], args)) as string;
  return picked || undefined;
}
