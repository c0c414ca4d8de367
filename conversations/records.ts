import { tagUnavailable } from '#platform/dependency-errors.js';
import type { RedisClient } from '#platform/redis.js';
import type { ConversationRef, ConversationStatus } from '#workflows/conversation/types.js';
import { conversationKeys } from './redis-keys.js';

export interface Contact {
  userId?: string;
  email?: string;
  name?: string;
}

export interface ConversationRecord extends ConversationRef {
  status: ConversationStatus;
  /** SHA-256 of the visitor token (widget conversations); empty for other channels. */
  visitorTokenHash: string;
  contact: Contact;
  agentName: string | null;
  createdAt: string;
  updatedAt: string;
}

/** The statuses in which a conversation needs a person: the agent inbox's default list. */
export const needsPerson: readonly ConversationStatus[] = ['waiting_for_agent', 'agent'];

/**
 * Conversation ids are UUIDs. Anything else names no conversation, and must not reach a Redis key:
 * `<uuid>:messages` is another key of the same conversation.
 */
export function isConversationId(value: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
}

/**
 * Each conversation's record in a Redis hash (the workflow decides; this is what the API reads), and
 * two per-tenant indexes for the agent inbox: every conversation by creation time, and those that
 * need a person by their last change of status (however many newer ones were started since).
 */
export function createConversationRecords(redis: RedisClient, prefix: string, now: () => Date = () => new Date()) {
  const keys = conversationKeys(prefix);

  return tagUnavailable('redis', {
    async create(
      record: Omit<ConversationRecord, 'createdAt' | 'updatedAt' | 'status' | 'agentName'>,
    ): Promise<ConversationRecord> {
      const createdAt = now().toISOString();
      const full: ConversationRecord = { ...record, status: 'ai', agentName: null, createdAt, updatedAt: createdAt };
      await redis
        .multi()
        .hSet(keys.record(record.conversationId), toHash(full))
        .zAdd(keys.ofTenant(record.tenantId), { score: Date.parse(createdAt), value: record.conversationId })
        .exec();
      return full;
    },

    async get(conversationId: string): Promise<ConversationRecord | undefined> {
      const hash = await redis.hGetAll(keys.record(conversationId));
      return hash.tenantId ? fromHash(conversationId, hash) : undefined;
    },

    async setStatus(
      { conversationId, tenantId }: Pick<ConversationRecord, 'conversationId' | 'tenantId'>,
      status: ConversationStatus,
      agentName: string | null,
    ): Promise<void> {
      const updatedAt = now().toISOString();
      const writes = redis.multi().hSet(keys.record(conversationId), { status, agentName: agentName ?? '', updatedAt });
      if (needsPerson.includes(status))
        writes.zAdd(keys.needingPerson(tenantId), { score: Date.parse(updatedAt), value: conversationId });
      else writes.zRem(keys.needingPerson(tenantId), conversationId);
      await writes.exec();
    },

    /** Removes a record whose workflow could not be started. */
    async remove(record: Pick<ConversationRecord, 'conversationId' | 'tenantId'>): Promise<void> {
      await redis
        .multi()
        .del(keys.record(record.conversationId))
        .zRem(keys.ofTenant(record.tenantId), record.conversationId)
        .zRem(keys.needingPerson(record.tenantId), record.conversationId)
        .exec();
    },
  });
}

export type ConversationRecords = ReturnType<typeof createConversationRecords>;

function toHash(record: ConversationRecord): Record<string, string> {
  const { conversationId: _id, contact, agentName, messaging, ...rest } = record;
  return {
    ...rest,
    contact: JSON.stringify(contact),
    agentName: agentName ?? '',
    ...(messaging ? { messaging: JSON.stringify(messaging) } : {}),
  };
}

function fromHash(conversationId: string, hash: Record<string, string>): ConversationRecord {
  return {
    conversationId,
    tenantId: hash.tenantId!,
    operatorId: hash.operatorId ?? '',
    knowledgeBaseId: hash.knowledgeBaseId ?? '',
    channel: (hash.channel ?? 'widget') as ConversationRecord['channel'],
    locale: hash.locale ?? 'en',
    ...(hash.messaging ? { messaging: JSON.parse(hash.messaging) as ConversationRecord['messaging'] } : {}),
    status: (hash.status ?? 'ai') as ConversationStatus,
    visitorTokenHash: hash.visitorTokenHash ?? '',
    contact: JSON.parse(hash.contact || '{}') as Contact,
    agentName: hash.agentName || null,
    createdAt: hash.createdAt ?? '',
    updatedAt: hash.updatedAt ?? '',
  };
}
