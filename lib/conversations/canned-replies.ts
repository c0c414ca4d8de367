/**
 * Canned replies (docs/agent-inbox.md, "Canned replies"): answers the tenant's people saved to send
 * again, each known by a shortcut (`refund`) and shared with the tenant, with one team, or kept by one
 * user for themselves. Plain Redis, under the deployment's prefix:
 *
 * - `canned-reply:{id}`: the reply, a hash of its fields (with its tenant, so that an id from another
 *   tenant is told apart from one that exists nowhere);
 * - `tenant:{tenantId}:canned-replies`: a sorted set of the tenant's reply ids by creation, which
 *   bounds the tenant at `cannedReplyLimits.perTenant`;
 * - `tenant:{tenantId}:canned-replies:{scope}`: a hash of shortcut to id per scope (`tenant`,
 *   `team:{teamId}`, `user:{userId}`), which keeps a shortcut unique within its scope and is what a
 *   list reads: only the scopes a user sees, never the whole tenant.
 *
 * Every change runs as one Lua script that checks what it relies on (the cap, a shortcut still free,
 * the reply unchanged since it was read), so two people saving at once cannot both pass a check.
 */
import { randomUUID } from 'node:crypto';
import { tagUnavailable } from '#platform/dependency-errors.js';
import type { RedisClient } from '#platform/redis.js';

export const cannedReplyScopes = ['tenant', 'team', 'personal'] as const;
export type CannedReplyScope = (typeof cannedReplyScopes)[number];

export const cannedReplyLimits = {
  /** A tenant's replies, all scopes together: a list is searched in memory, over what the user may see. */
  perTenant: 1_000,
  shortcut: /^[a-z0-9_-]{1,40}$/,
  titleChars: 200,
  /** The messaging platform takes 4,096 characters of text, as an agent's reply. */
  textChars: 4_096,
} as const;

/** A saved reply. `teamId` only for the `team` scope, `ownerId` only for `personal`. */
export interface CannedReply {
  id: string;
  tenantId: string;
  scope: CannedReplyScope;
  teamId?: string;
  ownerId?: string;
  shortcut: string;
  title: string;
  text: string;
  /** The user who wrote it, and who last changed it. */
  createdBy: string;
  updatedBy: string;
  createdAt: string;
  updatedAt: string;
}

/** What a person writes of a reply; where it belongs comes with it. */
export type CannedReplyInput = Pick<CannedReply, 'scope' | 'shortcut' | 'title' | 'text'> & { teamId?: string };

export class ShortcutTakenError extends Error {
  constructor(readonly shortcut: string) {
    super(`Another canned reply of the same scope already has the shortcut ${shortcut}.`);
    this.name = 'ShortcutTakenError';
  }
}

export class CannedReplyLimitError extends Error {
  constructor() {
    super(`A tenant holds at most ${cannedReplyLimits.perTenant} canned replies: delete one first.`);
    this.name = 'CannedReplyLimitError';
  }
}

/** The reply kept changing between its read and its write, however often the change was tried again. */
export class CannedReplyChangedError extends Error {
  constructor() {
    super('Someone else changed this canned reply at the same time: read it again and retry.');
    this.name = 'CannedReplyChangedError';
  }
}

/** Who asks: the reply's scope decides what they may see and change. */
export interface CannedReplyUser {
  id: string;
  tenantId: string;
}

/** The key part of a reply's scope: its shortcuts' hash. */
export const scopeKeyOf = ({ scope, teamId, ownerId }: Pick<CannedReply, 'scope' | 'teamId' | 'ownerId'>): string =>
  scope === 'tenant' ? 'tenant' : scope === 'team' ? `team:${teamId}` : `user:${ownerId}`;

/**
 * Whether the user may see and send the reply: the tenant's and any team's (team membership is not
 * checked yet: a team reply is listed for the teams the caller names), a personal one only by its owner.
 */
export function visibleTo(reply: CannedReply, user: CannedReplyUser): boolean {
  if (reply.tenantId !== user.tenantId) return false;
  return reply.scope !== 'personal' || reply.ownerId === user.id;
}

const fieldsOf = (reply: CannedReply): string[] =>
  Object.entries(reply)
    .filter(([, value]) => value !== undefined)
    .flatMap(([field, value]) => [field, String(value)]);

function replyFrom(hash: Record<string, string>): CannedReply | undefined {
  if (!hash.id || !hash.tenantId) return undefined;
  const { teamId, ownerId, ...rest } = hash;
  return {
    ...(rest as Omit<CannedReply, 'teamId' | 'ownerId'>),
    scope: hash.scope as CannedReplyScope,
    ...(teamId ? { teamId } : {}),
    ...(ownerId ? { ownerId } : {}),
  };
}

// KEYS: reply, tenant index, scope. ARGV: id, cap, shortcut, score, then the reply's fields.
const createScript = `
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[2]) then return -2 end
if redis.call('HSETNX', KEYS[3], ARGV[3], ARGV[1]) == 0 then return -1 end
redis.call('HSET', KEYS[1], unpack(ARGV, 5))
redis.call('ZADD', KEYS[2], ARGV[4], ARGV[1])
return 1`;

// KEYS: reply, old scope, new scope. ARGV: id, updatedAt read, old shortcut, new shortcut, then the new fields.
// The reply's fields are replaced whole (a team reply made personal loses its teamId).
const updateScript = `
if redis.call('HGET', KEYS[1], 'updatedAt') ~= ARGV[2] then return 0 end
local holder = redis.call('HGET', KEYS[3], ARGV[4])
if holder and holder ~= ARGV[1] then return -1 end
if redis.call('HGET', KEYS[2], ARGV[3]) == ARGV[1] then redis.call('HDEL', KEYS[2], ARGV[3]) end
redis.call('HSET', KEYS[3], ARGV[4], ARGV[1])
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], unpack(ARGV, 5))
return 1`;

// KEYS: reply, tenant index, scope. ARGV: id, updatedAt read, shortcut.
const removeScript = `
if redis.call('HGET', KEYS[1], 'updatedAt') ~= ARGV[2] then return 0 end
if redis.call('HGET', KEYS[3], ARGV[3]) == ARGV[1] then redis.call('HDEL', KEYS[3], ARGV[3]) end
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('DEL', KEYS[1])
return 1`;

/** How often a change is tried again when the reply changed between its read and its write. */
const changeAttempts = 3;

export function createCannedReplies(redis: RedisClient, prefix: string, now: () => Date = () => new Date()) {
  const keys = {
    reply: (id: string) => `${prefix}:canned-reply:${id}`,
    ofTenant: (tenantId: string) => `${prefix}:tenant:${tenantId}:canned-replies`,
    scope: (tenantId: string, scopeKey: string) => `${prefix}:tenant:${tenantId}:canned-replies:${scopeKey}`,
  };
  const scopeKeyFor = (reply: CannedReply) => keys.scope(reply.tenantId, scopeKeyOf(reply));

  /** Ids are UUIDs: anything else names no reply, and never reaches a key name. */
  async function get(id: string): Promise<CannedReply | undefined> {
    return isUuid(id) ? replyFrom(await redis.hGetAll(keys.reply(id))) : undefined;
  }

  /** `change` applied to the reply as read now, tried again if someone changed it in between; undefined once it is gone. */
  async function changing<T>(id: string, change: (reply: CannedReply) => Promise<T>): Promise<T | undefined> {
    for (let attempt = 1; ; attempt++) {
      const reply = await get(id);
      if (!reply) return undefined;
      try {
        return await change(reply);
      } catch (error) {
        if (!(error instanceof CannedReplyChangedError) || attempt === changeAttempts) throw error;
      }
    }
  }

  return tagUnavailable('redis', {
    get,

    /** A new reply of `user`'s tenant (personal ones owned by them); a shortcut taken in its scope: ShortcutTakenError. */
    async create(user: CannedReplyUser, input: CannedReplyInput): Promise<CannedReply> {
      const at = now().toISOString();
      const reply: CannedReply = {
        ...placed(input, user.id),
        id: randomUUID(),
        tenantId: user.tenantId,
        shortcut: input.shortcut,
        title: input.title,
        text: input.text,
        createdBy: user.id,
        updatedBy: user.id,
        createdAt: at,
        updatedAt: at,
      };
      const created = await redis.eval(createScript, {
        keys: [keys.reply(reply.id), keys.ofTenant(reply.tenantId), scopeKeyFor(reply)],
        arguments: [reply.id, String(cannedReplyLimits.perTenant), reply.shortcut, String(Date.parse(at)), ...fieldsOf(reply)],
      });
      if (created === -1) throw new ShortcutTakenError(reply.shortcut);
      if (created === -2) throw new CannedReplyLimitError();
      return reply;
    },

    /**
     * The reply rewritten by `user` (a personal one stays its owner's), once `allowed` agreed to the
     * reply as it is now; undefined when there is none. Its scope may change, its shortcut must be
     * free in the new one.
     */
    async update(
      id: string,
      user: CannedReplyUser,
      input: CannedReplyInput,
      allowed: (current: CannedReply) => void,
    ): Promise<CannedReply | undefined> {
      return changing(id, async (current) => {
        allowed(current);
        const { teamId: _team, ownerId: _owner, ...kept } = current;
        const updatedAt = laterThan(current.updatedAt);
        const reply: CannedReply = {
          ...kept,
          ...placed(input, current.ownerId ?? user.id),
          shortcut: input.shortcut,
          title: input.title,
          text: input.text,
          updatedBy: user.id,
          updatedAt,
        };
        const updated = await redis.eval(updateScript, {
          keys: [keys.reply(id), scopeKeyFor(current), scopeKeyFor(reply)],
          arguments: [id, current.updatedAt, current.shortcut, reply.shortcut, ...fieldsOf(reply)],
        });
        if (updated === 0) throw new CannedReplyChangedError();
        if (updated === -1) throw new ShortcutTakenError(reply.shortcut);
        return reply;
      });
    },

    /** Deletes the reply once `allowed` agreed to it as it is now; false when there was none. */
    async remove(id: string, allowed: (current: CannedReply) => void): Promise<boolean> {
      const removed = await changing(id, async (current) => {
        allowed(current);
        const done = await redis.eval(removeScript, {
          keys: [keys.reply(id), keys.ofTenant(current.tenantId), scopeKeyFor(current)],
          arguments: [id, current.updatedAt, current.shortcut],
        });
        if (done === 0) throw new CannedReplyChangedError();
        return true;
      });
      return removed ?? false;
    },

    /**
     * Every reply `user` may use: the tenant's, those of the teams named, and their own, by
     * shortcut. Reads only those scopes' shortcut hashes, then the replies.
     */
    async visible(user: CannedReplyUser, teamIds: readonly string[] = []): Promise<CannedReply[]> {
      const scopes = ['tenant', ...teamIds.map((teamId) => `team:${teamId}`), `user:${user.id}`];
      const ids = (await Promise.all(scopes.map((scope) => redis.hVals(keys.scope(user.tenantId, scope))))).flat();
      const replies = await Promise.all([...new Set(ids)].map(get));
      return replies
        .filter((reply): reply is CannedReply => reply !== undefined && visibleTo(reply, user))
        .sort((a, b) => a.shortcut.localeCompare(b.shortcut) || scopeOrder[a.scope] - scopeOrder[b.scope]);
    },
  });

  /** A changed reply's new time, later than the one before even within one millisecond: it is what a change checks against. */
  function laterThan(previous: string): string {
    const at = now().getTime();
    return new Date(Math.max(at, Date.parse(previous) + 1)).toISOString();
  }
}

const isUuid = (value: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);

/** Where a reply belongs: its scope, with the team's id or the owner's. */
function placed(input: CannedReplyInput, ownerId: string): Pick<CannedReply, 'scope' | 'teamId' | 'ownerId'> {
  if (input.scope === 'team') return { scope: 'team', teamId: input.teamId! };
  if (input.scope === 'personal') return { scope: 'personal', ownerId };
  return { scope: 'tenant' };
}

/** Equal shortcuts (of different scopes) list the user's own first, then the team's, then the tenant's. */
const scopeOrder: Record<CannedReplyScope, number> = { personal: 0, team: 1, tenant: 2 };

export type CannedReplies = ReturnType<typeof createCannedReplies>;
