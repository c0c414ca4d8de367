import { tagUnavailable } from '#platform/dependency-errors.js';
import type { RedisClient } from '#platform/redis.js';
import type { Tenancy } from '#tenancy/index.js';
import type { ConversationRecord, ConversationRecords } from './records.js';
import { conversationKeys } from './redis-keys.js';

/**
 * What the inbox's indexes say of agents (`inbox-placement.ts`): each one's load, the waiting
 * conversations given to them, and those of their teams' queues that could be offered to them now.
 */
export function createInboxPlacement({
  redis,
  prefix,
  records,
  tenancy,
}: {
  redis: RedisClient;
  prefix: string;
  records: Pick<ConversationRecords, 'get'>;
  tenancy: Pick<Tenancy, 'listTeams'>;
}) {
  const keys = conversationKeys(prefix);
  const assigneeKey = (tenantId: string, userId: string) => `${keys.inbox(tenantId)}:assignee:${userId}`;

  async function recordsOf(tenantId: string, ids: string[]): Promise<ConversationRecord[]> {
    const found = await Promise.all(ids.map((id) => records.get(id)));
    return found.filter((record): record is ConversationRecord => record?.tenantId === tenantId);
  }

  async function loads(tenantId: string, userIds: readonly string[]): Promise<Map<string, number>> {
    const counts = await Promise.all(userIds.map((userId) => redis.zCard(assigneeKey(tenantId, userId))));
    return new Map(userIds.map((userId, i) => [userId, counts[i]!]));
  }

  return tagUnavailable('redis', {
    loads,

    /** The conversations given to the user that they have not taken over yet. */
    async waitingGivenTo(tenantId: string, userId: string): Promise<ConversationRecord[]> {
      const ids = await redis.zRange(assigneeKey(tenantId, userId), 0, -1);
      return (await recordsOf(tenantId, ids)).filter(
        (record) => record.status === 'waiting_for_agent' && record.assigneeId === userId,
      );
    },

    /**
     * The oldest waiting conversations nobody has in the queues of the user's teams that assign
     * automatically, as many as the user has room for (the smallest capacity of those teams).
     */
    async offersFor(tenantId: string, userId: string): Promise<ConversationRecord[]> {
      const teams = (await tenancy.listTeams(tenantId)).filter(
        (team) => team.assignment.automatic && team.memberIds.includes(userId),
      );
      if (teams.length === 0) return [];
      const load = (await loads(tenantId, [userId])).get(userId) ?? 0;
      const room = Math.min(...teams.map((team) => team.assignment.capacity)) - load;
      if (room <= 0) return [];
      const queued = await Promise.all(
        teams.map((team) => redis.zRangeWithScores(`${keys.inbox(tenantId)}:queue:${team.id}`, 0, room - 1)),
      );
      const oldest = queued
        .flat()
        .sort((a, b) => a.score - b.score)
        .map((entry) => entry.value)
        .filter((id, i, all) => all.indexOf(id) === i)
        .slice(0, room);
      return (await recordsOf(tenantId, oldest)).filter((record) => record.status === 'waiting_for_agent' && !record.assigneeId);
    },
  });
}

export type InboxPlacement = ReturnType<typeof createInboxPlacement>;
