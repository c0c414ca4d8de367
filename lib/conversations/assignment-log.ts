import { tagUnavailable } from '#platform/dependency-errors.js';
import type { RedisClient } from '#platform/redis.js';
import { conversationKeys } from './redis-keys.js';

/** One change of a conversation's team or assignee, as the agents' transcript shows it (never the visitor's). */
export interface AssignmentEntry {
  /** Derived from the workflow's step: a step run again writes the same entry, read once. */
  id: string;
  text: string;
  createdAt: string;
  teamId: string | null;
  assignee: { id: string; name: string } | null;
  /** What made the change: routing at the handoff, the next agent, an offer, or a person (`by`). */
  reason: 'routed' | 'not_taken_up' | 'agent_left' | 'offered' | 'manual';
  by?: { id: string; name: string };
}

/** Entries a conversation keeps at most (the latest): a waiting conversation re-offered for days stays bounded. */
export const keptEntries = 200;

/**
 * The history of a conversation's assignments: a Redis list of its own beside the transcript (which the
 * visitor and the channel read), so what routing did stays among the tenant's people.
 */
export function createAssignmentLog(redis: RedisClient, prefix: string) {
  const key = (conversationId: string) => `${conversationKeys(prefix).record(conversationId)}:assignments`;
  return tagUnavailable('redis', {
    async append(conversationId: string, entry: AssignmentEntry): Promise<void> {
      await redis.multi().rPush(key(conversationId), JSON.stringify(entry)).lTrim(key(conversationId), -keptEntries, -1).exec();
    },

    /** Oldest first; a repeated entry (a step run again) once. */
    async read(conversationId: string): Promise<AssignmentEntry[]> {
      const seen = new Set<string>();
      return (await redis.lRange(key(conversationId), 0, -1))
        .map((json) => JSON.parse(json) as AssignmentEntry)
        .filter((entry) => !seen.has(entry.id) && Boolean(seen.add(entry.id)));
    },
  });
}

export type AssignmentLog = ReturnType<typeof createAssignmentLog>;

/** An entry as the agents' transcript shows it: a system message marked private. */
export function assignmentMessage(entry: AssignmentEntry) {
  return {
    id: entry.id,
    author: 'system' as const,
    text: entry.text,
    createdAt: entry.createdAt,
    aiGenerated: false,
    private: true as const,
    assignment: { teamId: entry.teamId, assignee: entry.assignee, reason: entry.reason },
  };
}
