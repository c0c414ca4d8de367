import { createHash } from 'node:crypto';
import { tagUnavailable } from '#platform/dependency-errors.js';
import type { RedisClient } from '#platform/redis.js';
import type { ClosedBy, ConversationRef, ConversationStatus, HandoffBy } from '#workflows/conversations/types.js';
import type { Locale } from '#workflows/locales.js';
import { moveInInbox, placementKeys } from './inbox-placement.js';
import { conversationKeys } from './redis-keys.js';

export interface Contact {
  userId?: string;
  email?: string;
  name?: string;
  /** True when the user id (and the name and e-mail the token carried) came from a valid identity token. */
  verified?: boolean;
}

/** The key part that names a verified visitor: the user id's SHA-256, so no tenant's id reaches a key name. */
export function userIdHash(userId: string): string {
  return createHash('sha256').update(userId).digest('hex');
}

export interface ConversationRecord extends ConversationRef {
  status: ConversationStatus;
  /** SHA-256 of the visitor token (widget conversations); empty for other channels. */
  visitorTokenHash: string;
  contact: Contact;
  agentName: string | null;
  /** The id of the agent who has the conversation (status `agent`); absent otherwise, and in records written before it was kept. */
  agentId?: string;
  createdAt: string;
  updatedAt: string;
  /** Who closed it (written when it closes; absent before, and in records closed before it was kept). */
  closedBy?: ClosedBy;
  /** Decided once it closed (docs/insights.md, "Outcomes"), with the UTC day of the close. */
  outcome?: 'resolved' | 'handed_off' | 'abandoned';
  outcomeDay?: string;
  /** Who first handed it to a person, when one was asked for or took over. */
  handoffBy?: HandoffBy;
  /** The team it was routed to at its handoff (docs/agent-inbox.md, "Teams and assignment"); absent: none. */
  teamId?: string;
  /** The agent it is assigned to: given to them and not yet taken over (status `waiting_for_agent`), or theirs (`agent`). */
  assigneeId?: string;
  assigneeName?: string;
  /** When it was assigned to them, ISO 8601. */
  assignedAt?: string;
  /** Its service-level clocks as the inbox shows them: the earliest due time of a running clock, and what was breached. */
  slaDueAt?: string;
  slaBreached?: string[];
}

/** Who a conversation is assigned to, and its team, as the assignment step writes them. */
export interface Assignment {
  teamId: string | null;
  assignee: { id: string; name: string } | null;
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
  const verifiedVisitorKey = verifiedVisitorKeyOf(prefix);
  const placement = (ref: Pick<ConversationRecord, 'conversationId' | 'tenantId'>) => placementKeys(prefix, ref);

  return tagUnavailable('redis', {
    async create(
      record: Omit<ConversationRecord, 'createdAt' | 'updatedAt' | 'status' | 'agentName'>,
    ): Promise<ConversationRecord> {
      const createdAt = now().toISOString();
      const full: ConversationRecord = { ...record, status: 'ai', agentName: null, createdAt, updatedAt: createdAt };
      const entry = { score: Date.parse(createdAt), value: record.conversationId };
      const writes = redis
        .multi()
        .hSet(keys.record(record.conversationId), toHash(full))
        .zAdd(keys.ofTenant(record.tenantId), entry);
      const verifiedKey = verifiedVisitorKey(record);
      if (verifiedKey) writes.zAdd(verifiedKey, entry);
      await writes.exec();
      return full;
    },

    async get(conversationId: string): Promise<ConversationRecord | undefined> {
      const hash = await redis.hGetAll(keys.record(conversationId));
      return hash.tenantId ? fromHash(conversationId, hash) : undefined;
    },

    /**
     * A change of status, and with it the inbox's indexes: an agent who takes the conversation over is its
     * assignee; handed back to the AI or closed, it is no one's (its team stays, for the reports).
     */
    async setStatus(
      ref: Pick<ConversationRecord, 'conversationId' | 'tenantId'>,
      status: ConversationStatus,
      agentName: string | null,
      agentId: string | null = null,
      /** With status `closed`: who closed it. */
      closedBy?: ClosedBy,
    ): Promise<void> {
      const at = now();
      const fields: Record<string, string> = {
        status,
        agentName: agentName ?? '',
        agentId: agentId ?? '',
        updatedAt: at.toISOString(),
        ...(closedBy ? { closedBy } : {}),
      };
      if (status === 'agent' && agentId)
        Object.assign(fields, { assigneeId: agentId, assigneeName: agentName ?? '', assignedAt: at.toISOString() });
      if (status === 'ai' || status === 'closed') Object.assign(fields, { assigneeId: '', assigneeName: '', assignedAt: '' });
      await moveInInbox(redis, placement(ref), ref.conversationId, at.getTime(), fields);
    },

    /** Assigns the conversation (or no one) within a team (or none), moving it in the inbox's indexes. */
    async assign(ref: Pick<ConversationRecord, 'conversationId' | 'tenantId'>, { teamId, assignee }: Assignment): Promise<void> {
      const at = now();
      await moveInInbox(redis, placement(ref), ref.conversationId, at.getTime(), {
        teamId: teamId ?? '',
        assigneeId: assignee?.id ?? '',
        assigneeName: assignee?.name ?? '',
        assignedAt: assignee ? at.toISOString() : '',
        updatedAt: at.toISOString(),
      });
    },

    /**
     * The conversation's service-level state, as its workflow's SLA step leaves it: the inbox's badge and its
     * order by time left (`<inbox>:sla`, by the earliest due time, only while a clock runs).
     */
    async setSla(
      ref: Pick<ConversationRecord, 'conversationId' | 'tenantId'>,
      { dueAt, breached }: { dueAt: number | null; breached: string[] },
    ) {
      const slaIndex = `${keys.inbox(ref.tenantId)}:sla`;
      const writes = redis
        .multi()
        .hSet(keys.record(ref.conversationId), {
          slaDueAt: dueAt === null ? '' : new Date(dueAt).toISOString(),
          slaBreached: breached.join(','),
        });
      if (dueAt === null) writes.zRem(slaIndex, ref.conversationId);
      else writes.zAdd(slaIndex, { score: dueAt, value: ref.conversationId });
      await writes.exec();
    },

    /** Removes a record whose workflow could not be started. */
    async remove(record: Pick<ConversationRecord, 'conversationId' | 'tenantId' | 'operatorId' | 'contact'>): Promise<void> {
      const writes = redis
        .multi()
        .del(keys.record(record.conversationId))
        .zRem(keys.ofTenant(record.tenantId), record.conversationId)
        .zRem(keys.needingPerson(record.tenantId), record.conversationId);
      const verifiedKey = verifiedVisitorKey(record);
      if (verifiedKey) writes.zRem(verifiedKey, record.conversationId);
      await writes.exec();
    },
  });
}

export type ConversationRecords = ReturnType<typeof createConversationRecords>;

/** The index of a verified visitor's conversations with the record's operator, when the contact is verified. */
function verifiedVisitorKeyOf(prefix: string) {
  const keys = conversationKeys(prefix);
  return ({ operatorId, contact }: Pick<ConversationRecord, 'operatorId' | 'contact'>) =>
    contact.verified && contact.userId ? keys.ofVerifiedVisitor(operatorId, userIdHash(contact.userId)) : undefined;
}

function toHash(record: ConversationRecord): Record<string, string> {
  const {
    conversationId: _id,
    contact,
    agentName,
    agentId,
    messaging,
    teamId,
    assigneeId,
    assigneeName,
    assignedAt,
    slaDueAt: _due,
    slaBreached: _breached,
    ...rest
  } = record;
  return {
    ...rest,
    ...(agentId ? { agentId } : {}),
    ...(teamId ? { teamId } : {}),
    ...(assigneeId ? { assigneeId, assigneeName: assigneeName ?? '' } : {}),
    ...(assignedAt ? { assignedAt } : {}),
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
    locale: (hash.locale ?? 'en') as Locale,
    ...(hash.messaging ? { messaging: JSON.parse(hash.messaging) as ConversationRecord['messaging'] } : {}),
    status: (hash.status ?? 'ai') as ConversationStatus,
    visitorTokenHash: hash.visitorTokenHash ?? '',
    contact: JSON.parse(hash.contact || '{}') as Contact,
    agentName: hash.agentName || null,
    ...(hash.agentId ? { agentId: hash.agentId } : {}),
    createdAt: hash.createdAt ?? '',
    updatedAt: hash.updatedAt ?? '',
    ...(hash.closedBy ? { closedBy: hash.closedBy as ClosedBy } : {}),
    ...(hash.outcome ? { outcome: hash.outcome as NonNullable<ConversationRecord['outcome']> } : {}),
    ...(hash.outcomeDay ? { outcomeDay: hash.outcomeDay } : {}),
    ...(hash.handoffBy ? { handoffBy: hash.handoffBy as HandoffBy } : {}),
    ...(hash.teamId ? { teamId: hash.teamId } : {}),
    ...(hash.assigneeId ? { assigneeId: hash.assigneeId, assigneeName: hash.assigneeName ?? '' } : {}),
    ...(hash.assignedAt ? { assignedAt: hash.assignedAt } : {}),
    ...(hash.slaDueAt ? { slaDueAt: hash.slaDueAt } : {}),
    ...(hash.slaBreached ? { slaBreached: hash.slaBreached.split(',') } : {}),
  };
}
