import type { ChannelState, DeliveryProblem } from '#messaging/channel-state.js';
import { tagUnavailable } from '#platform/dependency-errors.js';
import type { RedisClient } from '#platform/redis.js';
import type { Channel, ConversationStatus } from '#workflows/conversation/types.js';
import type { ConversationRecord, ConversationRecords } from './records.js';
import { conversationKeys } from './redis-keys.js';

/** How many of a tenant's newest conversations the inbox looks at. */
export const scannedConversations = 1_000;

/** The statuses the inbox shows by default: the conversations that need a person. */
export const needsPerson: readonly ConversationStatus[] = ['waiting_for_agent', 'agent'];

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
  contact: ConversationRecord['contact'];
  agentName: string | null;
  createdAt: string;
  updatedAt: string;
  windowOpenUntil?: string | null;
  deliveryProblem?: DeliveryProblem | null;
}

export interface InboxDeps {
  redis: Pick<RedisClient, 'zRange'>;
  prefix: string;
  records: Pick<ConversationRecords, 'get'>;
  channel: Pick<ChannelState, 'windowOpenUntil' | 'problemOf'>;
}

/**
 * What the agent inbox reads. The list reads the tenant's newest conversations by creation time
 * (at most `scannedConversations`) and filters them in memory: simple, and enough while a tenant
 * has few open conversations among its latest thousand. A status index per tenant is the next step
 * when that stops being true.
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
      const ids = await redis.zRange(keys.ofTenant(tenantId), 0, scannedConversations - 1, { REV: true });
      const found = await Promise.all(ids.map((id) => records.get(id)));
      const statuses = filter.status === 'all' ? undefined : filter.status ? [filter.status] : needsPerson;
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
