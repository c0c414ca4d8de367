import { tagUnavailable } from '#platform/dependency-errors.js';
import type { RedisClient } from '#platform/redis.js';
import type { Channel, ConversationStatus } from '#workflows/conversations/types.js';
import type { DeliveryProblem } from './events.js';
import { noTeam } from './inbox-placement.js';
import { needsPerson, type ConversationRecord, type ConversationRecords } from './records.js';
import { conversationKeys } from './redis-keys.js';

/** How many of a tenant's conversations the inbox looks at: the newest, or those that need a person. */
export const scannedConversations = 1_000;

/** The statuses the inbox shows by default: the conversations that need a person. */
export { needsPerson };

/**
 * Which conversations the inbox lists; without a status, those that need a person; without a channel,
 * every channel; `teamId` one team's (`none`: those routed to no team); `assignee` the user's own
 * (`mine`, with `userId`), nobody's (`unassigned`) or anyone's (`all`, the default).
 */
export interface InboxFilter {
  status?: ConversationStatus | 'all';
  channel?: Channel;
  teamId?: string;
  assignee?: 'mine' | 'unassigned' | 'all';
  /** Whose `mine` it is. */
  userId?: string;
  /** `activity` (default): newest activity first; `sla`: least time left to its service-level target first. */
  sort?: 'activity' | 'sla';
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
  /** Its team (null: none) and who it is assigned to (null: nobody). */
  teamId: string | null;
  assignee: { id: string; name: string } | null;
  /** Its running service-level clocks: the earliest due time (past: overdue) and the targets breached; null: none. */
  sla: { dueAt: string | null; breached: string[] } | null;
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

/** Records read per page while a list filters what its index does not (a channel, a status among all). */
const pageSize = 100;

/**
 * What the agent inbox reads. Conversations that need a person come from indexes of their own
 * (`inbox-placement.ts`: all of them, by team, by assignee, unassigned), each by latest change, so a
 * list reads one page of the index that matches it, however many conversations the tenant has or
 * started since. Other statuses are looked for among the tenant's newest `scannedConversations` by
 * creation, filtered in memory.
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
      teamId: record.teamId ?? null,
      assignee: record.assigneeId ? { id: record.assigneeId, name: record.assigneeName ?? '' } : null,
      sla: record.slaDueAt || record.slaBreached ? { dueAt: record.slaDueAt ?? null, breached: record.slaBreached ?? [] } : null,
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

  /** The index to read for `filter`, and whether it holds exactly what the filter asks (a page is then the answer). */
  function indexFor(tenantId: string, filter: InboxFilter, statuses: readonly ConversationStatus[] | undefined) {
    // By time left: the index of running clocks, soonest first, filtered.
    if (filter.sort === 'sla') return { key: `${keys.inbox(tenantId)}:sla`, exact: false, soonestFirst: true };
    if (!statuses?.every((status) => needsPerson.includes(status))) return { key: keys.ofTenant(tenantId), exact: false };
    const base = keys.inbox(tenantId);
    const exact = statuses.length === needsPerson.length && !filter.channel;
    if (filter.assignee === 'mine' && filter.userId)
      return { key: `${base}:assignee:${filter.userId}`, exact: exact && !filter.teamId };
    if (filter.teamId) return { key: `${base}:team:${filter.teamId}`, exact: exact && filter.assignee !== 'unassigned' };
    if (filter.assignee === 'unassigned') return { key: `${base}:unassigned`, exact };
    return { key: keys.needingPerson(tenantId), exact };
  }

  return tagUnavailable('redis', {
    summarize,

    /** The tenant's conversations that pass the filter, newest activity first. */
    async list(tenantId: string, filter: InboxFilter): Promise<ConversationSummary[]> {
      const statuses = filter.status === 'all' ? undefined : filter.status ? [filter.status] : needsPerson;
      const passes = (record: ConversationRecord | undefined): record is ConversationRecord =>
        record !== undefined &&
        record.tenantId === tenantId &&
        (!statuses || statuses.includes(record.status)) &&
        (!filter.channel || record.channel === filter.channel) &&
        (!filter.teamId || (record.teamId ?? noTeam) === filter.teamId) &&
        (filter.assignee !== 'mine' || record.assigneeId === filter.userId) &&
        (filter.assignee !== 'unassigned' || !record.assigneeId);
      const { key, exact, soonestFirst = false } = indexFor(tenantId, filter, statuses);
      const matching: ConversationRecord[] = [];
      // Pages of the index until the list is full, the index ends, or the scan's bound is reached.
      const size = exact ? filter.limit : pageSize;
      for (let start = 0; matching.length < filter.limit && start < scannedConversations; start += size) {
        const ids = await redis.zRange(key, start, start + size - 1, soonestFirst ? undefined : { REV: true });
        matching.push(...(await Promise.all(ids.map((id) => records.get(id)))).filter(passes));
        if (ids.length < size) break;
      }
      if (!soonestFirst) matching.sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
      return Promise.all(matching.slice(0, filter.limit).map(summarize));
    },
  });
}

export type Inbox = ReturnType<typeof createInbox>;
