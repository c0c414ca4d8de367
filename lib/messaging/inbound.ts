import { randomUUID } from 'node:crypto';
import { resolveLocale } from '#workflows/locales.js';
import type { Logger } from '#platform/logger.js';
import type { DeliveryProblem } from '#conversations/events.js';
import type { ConversationRecords } from '#conversations/records.js';
import type { ConversationClient } from '#conversations/workflow-client.js';
import { poll } from '#platform/poll.js';
import type { Tenancy } from '#tenancy/index.js';
import type { ConversationRef, ConversationTimers } from '#workflows/conversations/types.js';
import type { ChannelState } from './channel-state.js';
import { deliveryProblemCode, platformErrorOf } from './graph-errors.js';
import type { WebhookEvent } from './webhook-payload.js';
import type { FeedbackReplies } from './feedback-replies.js';
import type { ConversationCounts } from '#insights/conversation-counts.js';

type WebhookMessage = Extract<WebhookEvent, { kind: 'message' }>;
type WebhookStatus = Extract<WebhookEvent, { kind: 'status' }>;

/** What of a connection taking in a delivery needs. */
export interface InboundConnection {
  id: string;
  tenantId: string;
  operatorId: string;
  phoneNumberId: string;
}

export interface InboundDeps {
  records: Pick<ConversationRecords, 'create' | 'get' | 'remove'>;
  channel: ChannelState;
  conversations: Pick<ConversationClient, 'receiveCustomerMessage' | 'offerCustomerMessage' | 'reportWindowClosed'>;
  tenancy: Pick<Tenancy, 'listOperators'>;
  timers: ConversationTimers;
  logger: Logger;
  /** The operator's `started:messaging` counter. */
  counts: Pick<ConversationCounts, 'started'>;
  /** Taps on the feedback asks: recorded, thanked, and no conversation started. */
  feedback: Pick<FeedbackReplies, 'take'>;
  /** How long a copy of a message waits for another copy taking it in at that moment (default 10 s). */
  racingCopyWaitMs?: number;
}

/** Another copy of a message was being taken in, and did not finish within the wait: the platform should deliver again. */
export class TakingInUnfinishedError extends Error {
  override readonly name = 'TakingInUnfinishedError';
}

export interface TakenIn {
  messages: number;
  duplicates: number;
  statuses: number;
  ignored: number;
}

/**
 * Takes a verified webhook delivery in: each customer message goes to the customer's conversation
 * (started with it when the customer has none open, or the open one has just closed), durably,
 * before the delivery is answered;
 * statuses update what we sent. A message already taken in (deliveries are at least once) does
 * nothing; it is marked only once its conversation has it, so a failure half-way loses nothing: the
 * platform delivers again.
 */
export function createInbound({
  records,
  channel,
  conversations,
  tenancy,
  timers,
  logger,
  counts,
  feedback,
  racingCopyWaitMs = 10_000,
}: InboundDeps) {
  /** The customer's conversation `current`, if its record still reads open. */
  async function openConversation(current: string | undefined): Promise<ConversationRef | undefined> {
    const open = current ? await records.get(current) : undefined;
    return open && open.status !== 'closed' ? refOf(open) : undefined;
  }

  /**
   * A new conversation for the customer, replacing `previous` (none, or one that has closed); when a
   * racing delivery of the same customer replaced it first, theirs.
   */
  async function newConversation(
    connection: InboundConnection,
    customer: string,
    previous: string | undefined,
    customerName?: string,
  ): Promise<ConversationRef> {
    const operator = (await tenancy.listOperators(connection.tenantId)).find(({ id }) => id === connection.operatorId);
    if (!operator) throw new Error(`The operator ${connection.operatorId} of connection ${connection.id} no longer exists.`);
    const ref: ConversationRef = {
      conversationId: randomUUID(),
      tenantId: connection.tenantId,
      operatorId: operator.id,
      knowledgeBaseId: operator.knowledgeBaseId,
      channel: 'messaging',
      locale: resolveLocale(operator.locale),
      messaging: { connectionId: connection.id, customer },
    };
    const created = await records.create({ ...ref, visitorTokenHash: '', contact: customerName ? { name: customerName } : {} });
    const winner = await channel.claimConversation(connection.id, customer, ref.conversationId, previous);
    if (winner === ref.conversationId) return ref;
    // Another delivery of the same customer got there first: theirs is the conversation.
    await records.remove(created);
    const theirs = await records.get(winner);
    return theirs ? refOf(theirs) : ref;
  }

  /**
   * Hands the message to the customer's conversation, durably: the open one if it takes it (it
   * refuses once it has closed, even while its record still reads open), else a new one started
   * with it. A message is never left in a conversation that has closed.
   */
  async function handOver(connection: InboundConnection, event: WebhookMessage, current: string | undefined): Promise<void> {
    const message = { messageId: event.messageId, text: event.text };
    const at = new Date(event.timestamp);
    const open = await openConversation(current);
    if (open) {
      // The window first: the answer this message starts must find it open.
      await channel.noteCustomerMessage(open.conversationId, at, event.messageId);
      if (await conversations.offerCustomerMessage(open, timers, message)) return;
    }
    const ref = await newConversation(connection, event.from, current, event.customerName);
    await channel.noteCustomerMessage(ref.conversationId, at, event.messageId);
    await conversations.receiveCustomerMessage(ref, timers, message);
    // Counted once per conversation: a racing delivery that joined it counts nothing.
    await counts.started(ref);
  }

  /**
   * True when this copy of the message is the one to take it in; false for a duplicate (taken in
   * before, or by a copy arriving at the same moment, which this one waits for: should that copy
   * fail, this one takes the message in instead).
   */
  async function claimMessage(connectionId: string, messageId: string): Promise<boolean> {
    const claim = await poll(
      () => channel.claimTakingIn(connectionId, messageId),
      (answer) => answer !== 'pending',
      { timeoutMs: racingCopyWaitMs, intervalMs: 25 },
    );
    if (claim === 'pending') throw new TakingInUnfinishedError(`Another copy of message ${messageId} is still being taken in.`);
    return claim === 'claimed';
  }

  /**
   * A status of one of our messages moves its delivery on; a failure is recorded under the same
   * code as a send refused at once (`deliveryProblemCode`), and one for the closed window (131047)
   * asks the conversation's workflow to hand the customer to a person.
   */
  async function takeStatus(connection: InboundConnection, event: WebhookStatus): Promise<void> {
    const problem: DeliveryProblem | undefined = event.error && {
      code: deliveryProblemCode(event.error.code),
      message: event.error.details || event.error.message || event.error.title,
      at: event.timestamp,
      // Beside ours, the platform's own number and title ("131026", "Message undeliverable").
      ...platformErrorOf(event.error.code, event.error.title),
    };
    const moved = await channel.applyStatus(connection.id, event.messageId, event.status, problem);
    if (moved?.delivery.status !== 'failed' || moved.delivery.problem?.code !== 'window_closed') return;
    await channel.closeWindow(moved.conversationId, new Date(event.timestamp));
    const record = await records.get(moved.conversationId);
    if (record && record.status !== 'closed') await conversations.reportWindowClosed(refOf(record), moved.messageId);
  }

  return {
    async takeIn(connection: InboundConnection, events: WebhookEvent[]): Promise<TakenIn> {
      const counts: TakenIn = { messages: 0, duplicates: 0, statuses: 0, ignored: 0 };
      for (const event of events) {
        if (event.phoneNumberId !== connection.phoneNumberId) {
          counts.ignored++;
          continue;
        }
        switch (event.kind) {
          case 'message': {
            if (!(await claimMessage(connection.id, event.messageId))) {
              counts.duplicates++;
              continue;
            }
            try {
              // A tap on a feedback ask of the customer's own conversation is a rating, not a message.
              if (!(await feedback.take(connection.id, event)))
                await handOver(connection, event, await channel.conversationOf(connection.id, event.from));
            } catch (error) {
              await channel.releaseTakingIn(connection.id, event.messageId);
              throw error;
            }
            await channel.markTakenIn(connection.id, event.messageId);
            counts.messages++;
            continue;
          }
          case 'status':
            await takeStatus(connection, event);
            counts.statuses++;
            continue;
          case 'reaction': {
            // No answer to an emoji, but the customer wrote: the 24-hour window starts again.
            const conversationId = await channel.conversationOf(connection.id, event.from);
            if (conversationId) await channel.noteCustomerMessage(conversationId, new Date(event.timestamp));
            counts.ignored++;
            continue;
          }
          case 'error':
            logger.warn({ connectionId: connection.id, error: event }, 'the messaging platform reported an error');
            counts.ignored++;
        }
      }
      return counts;
    },
  };
}

export type Inbound = ReturnType<typeof createInbound>;

/** The conversation's fixed identity, as its workflow takes it, out of its record. */
function refOf({
  conversationId,
  tenantId,
  operatorId,
  knowledgeBaseId,
  channel,
  locale,
  messaging,
}: ConversationRef): ConversationRef {
  return { conversationId, tenantId, operatorId, knowledgeBaseId, channel, locale, ...(messaging ? { messaging } : {}) };
}
