import { tagUnavailable } from '#platform/dependency-errors.js';
import type { RedisClient } from '#platform/redis.js';
import type { Channel, ConversationStatus } from '#workflows/conversations/types.js';
import type { DeliveryProblem } from './events.js';
import { needsPerson, type ConversationRecord, type ConversationRecords } from './records.js';
import { conversationKeys } from './redis-keys.js';

/** How many of a tenant's conversations the inbox looks at: the newest, or those that need a person. */
export const scannedConversations = 1_000;

/** The statuses the inbox shows by default: the conversations that need a person. */
export { needsPerson };

/** Which conversations the inbox lists; without a status, those that need a person; without a channel, every channel. */
export interface InboxFilter {
  status?: ConversationStatus | 'all';
  channel?: Channel;
  limit: number;
}

/** One conversation as agents see it; the window and delivery problem for messaging ones only. */
export interface ConversationSummary {
  conversationId: string;
  channel: Channel;
  status: ConversationStatus;
  /** Messaging: with the customer's number (`phone`, E.164) beside the profile name. */
  contact: ConversationRecord['contact'] & { phone?: string };
  agentName: string | null;
  createdAt: string;
  updatedAt: string;
  windowOpenUntil?: string | null;
  deliveryProblem?: DeliveryProblem | null;
}

/** What the inbox reads of a messaging conversation's channel (the messaging channel's state). */
export interface InboxChannel {
  /** Until when free-form messages may be sent; undefined when the customer never wrote. */
  windowOpenUntil(conversationId: string): Promise<Date | undefined>;
  /** The latest problem of the conversation's deliveries. */
  problemOf(conversationId: string): Promise<DeliveryProblem | undefined>;
}

export interface InboxDeps {
  redis: Pick<RedisClient, 'zRange'>;
  prefix: string;
  records: Pick<ConversationRecords, 'get'>;
  channel: InboxChannel;
}

/**
 * What the agent inbox reads. Conversations that need a person come from their own index, so
 * however many conversations were started since (a flood of junk ones too), a customer waiting for
 * a person stays in view. Other lists read the tenant's newest conversations by creation time; every
 * list reads at most `scannedConversations` records and filters them in memory.
 */
export function createInbox({ redis, prefix, records, channel }: InboxDeps) {
  const keys = conversationKeys(prefix);

  async function summarize(record: ConversationRecord): Promise<ConversationSummary> {
    const { conversationId, status, contact, agentName, createdAt, updatedAt } = record;
    const summary: ConversationSummary = {
      conversationId,
      channel: record.channel,
      status,
      contact,
      agentName,
      createdAt,
      updatedAt,
    };
    if (record.channel !== 'messaging') return summary;
    // The profile name is whatever the customer chose: agents see the number beside it.
    const customer = record.messaging?.customer;
    if (customer && /^\d+$/.test(customer)) summary.contact = { ...contact, phone: `+${customer}` };
    const [windowOpenUntil, problem] = await Promise.all([
      channel.windowOpenUntil(conversationId),
      channel.problemOf(conversationId),
    ]);
    return { ...summary, windowOpenUntil: windowOpenUntil?.toISOString() ?? null, deliveryProblem: problem ?? null };
  }

  return tagUnavailable('redis', {
    summarize,

    /** The tenant's conversations that pass the filter, newest activity first. */
    async list(tenantId: string, filter: InboxFilter): Promise<ConversationSummary[]> {
      const statuses = filter.status === 'all' ? undefined : filter.status ? [filter.status] : needsPerson;
      const index = statuses?.every((status) => needsPerson.includes(status))
        ? keys.needingPerson(tenantId)
        : keys.ofTenant(tenantId);
      const ids = await redis.zRange(index, 0, scannedConversations - 1, { REV: true });
      const found = await Promise.all(ids.map((id) => records.get(id)));
      const matching = found
        .filter((record): record is ConversationRecord => record !== undefined && record.tenantId === tenantId)
        .filter((record) => !statuses || statuses.includes(record.status))
        .filter((record) => !filter.channel || record.channel === filter.channel)
        .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt))
        .slice(0, filter.limit);
      return Promise.all(matching.map(summarize));
    },
  });
}

export type Inbox = ReturnType<typeof createInbox>;
