/**
 * A customer's tap on a feedback ask (`feedback-asks.ts`): recorded through the ratings store, and
 * acknowledged with a short thanks. It never starts or reopens a conversation. A choice id is the
 * customer's to send as they like, so it counts only for a conversation of the same connection and
 * customer; any other (another customer's conversation, one that does not exist, a score for a
 * conversation no agent closed) is not a rating, and the message is taken in as the text it also is.
 */
import { stringsFor } from '#answering/locales.js';
import type { ConversationRecord, ConversationRecords } from '#conversations/records.js';
import type { Ratings } from '#insights/ratings.js';
import type { Transcript } from '#conversations/transcript.js';
import type { Logger } from '#platform/logger.js';
import type { Locale } from '#workflows/locales.js';
import { readFeedbackChoice, type FeedbackChoice } from './feedback-asks.js';
import type { GraphClient } from './graph-client.js';
import type { MessagingConnections } from './connections.js';
import { textMessage } from './outbound-message.js';

/** The ratings store's writes a tap needs (docs/insights.md). */
export type RatingsStore = Pick<Ratings, 'rateAnswer' | 'rateSatisfaction'>;

/** Sends the customer one text outside any conversation: the thanks for a rating. */
export interface Acknowledger {
  thank(input: { connectionId: string; customer: string; locale: Locale; replyTo: string }): Promise<void>;
}

export interface FeedbackReplyDeps {
  records: Pick<ConversationRecords, 'get'>;
  transcript: Pick<Transcript, 'read'>;
  ratings: RatingsStore;
  acknowledger: Acknowledger;
}

/** The tapped message, as far as a rating needs it. */
export interface TappedReply {
  messageId: string;
  from: string;
  choiceId?: string;
}

export function createFeedbackReplies({ records, transcript, ratings, acknowledger }: FeedbackReplyDeps) {
  /** The rated conversation, when it is this connection's and this customer's. */
  async function ownConversation(connectionId: string, customer: string, choice: FeedbackChoice) {
    const record = await records.get(choice.conversationId);
    const own = record?.messaging?.connectionId === connectionId && record.messaging.customer === customer;
    return own ? record : undefined;
  }

  async function rate(record: ConversationRecord, choice: FeedbackChoice): Promise<boolean> {
    if (choice.kind === 'satisfaction') {
      // The store refuses a score for a conversation no agent closed (`not_closed_by_agent`).
      const scored = await ratings.rateSatisfaction({ conversationId: record.conversationId, score: choice.score });
      return typeof scored === 'object';
    }
    // "Was this helpful?" rates the conversation's last answer.
    const answers = (await transcript.read(record.conversationId)).filter(
      (message) => message.author === 'ai' && message.outcome === 'answered',
    );
    const last = answers.at(-1);
    if (!last) return false;
    return (
      (await ratings.rateAnswer({ conversationId: record.conversationId, messageId: last.id, rating: choice.rating })) !==
      undefined
    );
  }

  return {
    /**
     * Records the tap when it is a rating of the customer's own conversation, and thanks them;
     * answers whether it did (false: the message is an ordinary one).
     */
    async take(connectionId: string, reply: TappedReply): Promise<boolean> {
      const choice = readFeedbackChoice(reply.choiceId);
      if (!choice) return false;
      const record = await ownConversation(connectionId, reply.from, choice);
      if (!record || !(await rate(record, choice))) return false;
      await acknowledger.thank({ connectionId, customer: reply.from, locale: record.locale, replyTo: reply.messageId });
      return true;
    },
  };
}

export type FeedbackReplies = ReturnType<typeof createFeedbackReplies>;

export interface AcknowledgerDeps {
  connections: Pick<MessagingConnections, 'get' | 'credentialsOf'>;
  graph: Pick<GraphClient, 'sendMessage'>;
  logger: Logger;
}

/**
 * The thanks goes straight to the platform from the process that took the tap in: the conversation
 * it rates has closed, so no workflow delivers for it any more. A courtesy: one try (keyed by the
 * tapped message, so a repeated send is the same send), and a failure is logged, not retried.
 */
export function createAcknowledger({ connections, graph, logger }: AcknowledgerDeps): Acknowledger {
  return {
    async thank({ connectionId, customer, locale, replyTo }) {
      try {
        const connection = await connections.get(connectionId);
        if (!connection || connection.status !== 'active') return;
        const { accessToken } = await connections.credentialsOf(connection);
        const payload = textMessage(customer, stringsFor(locale).feedbackThanks, { replyTo });
        await graph.sendMessage(
          { apiVersion: connection.apiVersion, phoneNumberId: connection.phoneNumberId, accessToken },
          payload,
          { idempotencyKey: `thanks/${replyTo}` },
        );
      } catch (error) {
        logger.warn({ connectionId, err: { message: (error as Error).message } }, 'the thanks for a rating was not sent');
      }
    },
  };
}
