import { tagUnavailable } from '#platform/dependency-errors.js';
import type { RedisClient } from '#platform/redis.js';
import { runScript } from '#platform/redis-scripts.js';

/**
 * Which conversations the search index has yet to take in (docs/agent-inbox.md, "Conversation
 * search"): a Redis sorted set of `tenantId/conversationId`, each scored by when it is due (the time
 * it was first marked, or the time of its next try after Weaviate refused it). Marking is one ZADD
 * beside the write that changed the conversation, so nothing a conversation accepted can be missed;
 * the indexer claims what is due (a second sorted set, scored by when the claim lapses, so a worker
 * that dies mid-batch holds nothing for long) and lets go of a claim only once Weaviate accepted the
 * document. A conversation changed again while claimed is marked again and taken once more after.
 */

export interface ConversationChange {
  tenantId: string;
  conversationId: string;
}

/** A batch the indexer holds: its changes, and the claim's token (the time it lapses), which completes it. */
export interface ClaimedChanges {
  changes: ConversationChange[];
  token: string;
}

export function searchChangeKeys(prefix: string) {
  return {
    changed: `${prefix}:conversation-search:changed`,
    claimed: `${prefix}:conversation-search:claimed`,
  };
}

const memberOf = ({ tenantId, conversationId }: ConversationChange) => `${tenantId}/${conversationId}`;

function changeOf(member: string): ConversationChange {
  const slash = member.indexOf('/');
  return { tenantId: member.slice(0, slash), conversationId: member.slice(slash + 1) };
}

/**
 * The entry that marks a conversation changed, for a writer that adds it to a MULTI of its own
 * (`records.setStatus`, say: `multi.zAdd(entry.key, entry.value, { LT: true })`), so the change and
 * its mark are one write.
 */
export function searchChangeEntry(prefix: string, change: ConversationChange, at = Date.now()) {
  return { key: searchChangeKeys(prefix).changed, value: { score: at, value: memberOf(change) } };
}

// Claims lapsed (their worker died) go back to the changed set first; then up to ARGV[3] due changes
// not claimed already (a change marked again while its batch runs waits for that batch) are moved to
// the claimed set, scored by the claim's token.
const claimScript = `
local lapsed = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', ARGV[1])
for _, member in ipairs(lapsed) do
  redis.call('ZREM', KEYS[2], member)
  redis.call('ZADD', KEYS[1], 'LT', ARGV[1], member)
end
local wanted = tonumber(ARGV[3])
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, wanted * 4)
local taken = {}
for _, member in ipairs(due) do
  if #taken >= wanted then break end
  if not redis.call('ZSCORE', KEYS[2], member) then
    redis.call('ZREM', KEYS[1], member)
    redis.call('ZADD', KEYS[2], ARGV[2], member)
    taken[#taken + 1] = member
  end
end
return taken`;

// Lets go of the claims still held under the token (ARGV[1]); with a retry time (ARGV[2] not empty),
// marks them changed again for then (or sooner, when marked meanwhile).
const releaseScript = `
local released = 0
for i = 3, #ARGV do
  local score = redis.call('ZSCORE', KEYS[2], ARGV[i])
  if score and tonumber(score) == tonumber(ARGV[1]) then
    redis.call('ZREM', KEYS[2], ARGV[i])
    if ARGV[2] ~= '' then redis.call('ZADD', KEYS[1], 'LT', ARGV[2], ARGV[i]) end
    released = released + 1
  end
end
return released`;

export function createSearchChanges(redis: RedisClient, prefix: string, now: () => number = Date.now) {
  const keys = searchChangeKeys(prefix);
  const release = (token: string, changes: ConversationChange[], retryAt: string) =>
    changes.length === 0
      ? Promise.resolve(0)
      : (runScript(
          redis,
          releaseScript,
          [keys.changed, keys.claimed],
          [token, retryAt, ...changes.map(memberOf)],
        ) as Promise<number>);

  return tagUnavailable('redis', {
    /**
     * Marks a conversation changed: its messages, notes, record or rating. A conversation marked
     * already keeps its earlier time (LT), except that a change pulls a postponed retry forward.
     */
    async markChanged(tenantId: string, conversationId: string): Promise<void> {
      const entry = searchChangeEntry(prefix, { tenantId, conversationId }, now());
      await redis.zAdd(entry.key, entry.value, { LT: true });
    },

    /** Claims up to `limit` due changes for `leaseMs`, oldest first; none when nothing is due. */
    async claim(limit: number, leaseMs: number): Promise<ClaimedChanges> {
      const at = now();
      // The token is the claim's lapse time, with a random fraction so two claims never share one.
      const token = String(at + leaseMs + Math.floor(Math.random() * 1000) / 1024);
      const members = (await runScript(
        redis,
        claimScript,
        [keys.changed, keys.claimed],
        [String(at), token, String(limit)],
      )) as string[];
      return { changes: members.map(changeOf), token };
    },

    /** The claimed changes are in the index: forgotten (those marked again meanwhile stay marked). */
    async complete(token: string, changes: ConversationChange[]): Promise<void> {
      await release(token, changes, '');
    },

    /** The claimed changes could not be indexed: tried again at `retryAt` (epoch ms), or sooner if marked again. */
    async retryLater(token: string, changes: ConversationChange[], retryAt: number): Promise<void> {
      await release(token, changes, String(retryAt));
    },

    /** How many conversations wait to be indexed (claimed ones included): for metrics and tests. */
    async pending(): Promise<number> {
      const [changed, claimed] = await Promise.all([redis.zCard(keys.changed), redis.zCard(keys.claimed)]);
      return changed + claimed;
    },
  });
}

export type SearchChanges = ReturnType<typeof createSearchChanges>;
