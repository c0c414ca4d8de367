import type { ChatMessage } from '#conversations/chat-message.js';
import type { ConversationRecords } from '#conversations/records.js';
import { conversationKeys } from '#conversations/redis-keys.js';
import type { Transcript } from '#conversations/transcript.js';
import { tagUnavailable } from '#platform/dependency-errors.js';
import type { Logger } from '#platform/logger.js';
import type { RedisClient } from '#platform/redis.js';
import type { GapInput } from './content-gaps/types.js';
import { dayOf, insightKeys, type Outcome, type Rating } from './day-counters.js';
import { decideOutcome } from './outcome.js';
import { writeAnswerRating, writeSatisfaction } from './rating-scripts.js';

/**
 * Visitors' and customers' ratings (docs/insights.md, "Feedback"): an AI answer rated up or down,
 * and the 1–5 score after an agent closed the conversation. Each is stored with the conversation
 * (`{prefix}:conversation:{id}:feedback`, a hash of message id to the rating with the sources the
 * answer cited; `…:satisfaction`, the score) and counted on the operator's day counters in the
 * same Lua script, which also moves a closed conversation between `resolved` and `abandoned`.
 * A repeated rating replaces the earlier one; the counts move with it and never double.
 */

/** The longest reason a visitor may give with a rating. */
export const reasonMaxChars = 500;

export interface AnswerRatingInput {
  conversationId: string;
  messageId: string;
  rating: Rating;
  reason?: string;
}

export interface AnswerRating {
  messageId: string;
  rating: Rating;
  reason: string | null;
  ratedAt: string;
}

export interface SatisfactionRating {
  score: number;
  ratedAt: string;
}

/** A source an answer cited, as the insights name sources: `{knowledgeBaseId}/{externalId}`. */
export interface CitedSource {
  key: string;
  title: string;
}

/** What is stored for a rated answer (the hash field's JSON). */
export interface StoredAnswerRating {
  rating: Rating;
  reason: string | null;
  citedSources: CitedSource[];
  ratedAt: string;
  /** The UTC day the answer was first rated, which its count stays with. */
  day: string;
  /** The visitor message the answer replied to. */
  question?: string;
}

/**
 * A newly rated-down answer, as the content-gaps recorder takes it (`lib/insights/content-gaps/`): its
 * closest sources are the ones it cited, in citation order, without a score (a message keeps none).
 */
export type RatedDownAnswer = GapInput & { reason: 'rated_down' };

/** What a transcript message carries once rated. */
export interface MessageFeedback {
  rating: Rating;
  reason: string | null;
}

export interface RatingsDeps {
  redis: RedisClient;
  prefix: string;
  records: Pick<ConversationRecords, 'get'>;
  transcript: Pick<Transcript, 'read'>;
  /** Told of each new `down` (not a repeated one); its failures are logged and never fail the rating. */
  onRatedDown?: (answer: RatedDownAnswer) => Promise<unknown> | void;
  logger: Pick<Logger, 'warn'>;
  now?: () => Date;
}

export type SatisfactionResult = SatisfactionRating | 'not_found' | 'not_closed_by_agent';

const ratableOutcomes: ReadonlyArray<ChatMessage['outcome']> = ['answered', 'unknown'];

export function createRatings({ redis, prefix, records, transcript, onRatedDown, logger, now = () => new Date() }: RatingsDeps) {
  const keys = conversationKeys(prefix);
  const feedbackKey = (conversationId: string) => `${keys.record(conversationId)}:feedback`;
  const satisfactionKey = (conversationId: string) => `${keys.record(conversationId)}:satisfaction`;
  const dayBase = (owner: { tenantId: string; operatorId: string }) => insightKeys(prefix).day(owner, '');

  async function tellRatedDown(answer: RatedDownAnswer): Promise<void> {
    try {
      await onRatedDown?.(answer);
    } catch (error) {
      logger.warn(
        { err: { message: (error as Error).message }, conversationId: answer.conversationId, messageId: answer.messageId },
        'a rated-down answer was not recorded as a content gap',
      );
    }
  }

  return tagUnavailable('redis', {
    /**
     * Rates an AI answer of the conversation (an `ai` message that answered or said it did not
     * know); undefined when there is no such answer.
     */
    async rateAnswer({ conversationId, messageId, rating, reason }: AnswerRatingInput): Promise<AnswerRating | undefined> {
      if (rating !== 'up' && rating !== 'down') throw new RangeError(`A rating is up or down, not ${String(rating)}.`);
      const record = await records.get(conversationId);
      if (!record) return undefined;
      const messages = await transcript.read(conversationId);
      const answer = messages.find(
        (message) => message.id === messageId && message.author === 'ai' && ratableOutcomes.includes(message.outcome),
      );
      if (!answer) return undefined;
      const question = messages.find((message) => message.id === answer.replyTo && message.author === 'visitor')?.text;
      const citedSources = (answer.citations ?? []).map(({ externalId, title }) => ({
        key: `${record.knowledgeBaseId}/${externalId}`,
        title,
      }));
      const at = now();
      const ratedAt = at.toISOString();
      const written = await writeAnswerRating(redis, {
        recordKey: keys.record(conversationId),
        feedbackKey: feedbackKey(conversationId),
        messageId,
        rating,
        entry: { rating, reason: reason ?? null, citedSources, ratedAt, ...(question === undefined ? {} : { question }) },
        today: dayOf(at),
        dayBase: dayBase(record),
        // A rating moves only a conversation nobody was handed to (the script leaves `handed_off` alone).
        outcomes: outcomesOf(messages.some((message) => message.author === 'ai' && message.outcome === 'answered')),
      });
      if (rating === 'down' && written.previous !== 'down')
        await tellRatedDown({
          tenantId: record.tenantId,
          operatorId: record.operatorId,
          knowledgeBaseId: record.knowledgeBaseId,
          conversationId,
          messageId,
          question: question ?? '',
          locale: record.locale,
          channel: record.channel,
          reason: 'rated_down',
          closestSources: citedSources.map((source) => ({ ...source, score: null })),
        });
      return { messageId, rating, reason: reason ?? null, ratedAt };
    },

    /** The visitor's 1–5 score of a conversation an agent closed; a repeated score replaces the earlier one. */
    async rateSatisfaction({ conversationId, score }: { conversationId: string; score: number }): Promise<SatisfactionResult> {
      if (!Number.isInteger(score) || score < 1 || score > 5) throw new RangeError(`A score is 1 to 5, not ${score}.`);
      const record = await records.get(conversationId);
      if (!record) return 'not_found';
      const at = now();
      const ratedAt = at.toISOString();
      const written = await writeSatisfaction(redis, {
        recordKey: keys.record(conversationId),
        satisfactionKey: satisfactionKey(conversationId),
        score,
        ratedAt,
        today: dayOf(at),
        dayBase: dayBase(record),
      });
      return written.written ? { score, ratedAt } : 'not_closed_by_agent';
    },

    /** The conversation's score, or null before one. */
    async satisfactionOf(conversationId: string): Promise<SatisfactionRating | null> {
      const json = await redis.get(satisfactionKey(conversationId));
      if (!json) return null;
      const { score, ratedAt } = JSON.parse(json) as SatisfactionRating;
      return { score, ratedAt };
    },

    /** Each rated answer's stored rating, by message id. */
    async answerRatingsOf(conversationId: string): Promise<Map<string, StoredAnswerRating>> {
      const hash = await redis.hGetAll(feedbackKey(conversationId));
      return new Map(Object.entries(hash).map(([messageId, json]) => [messageId, JSON.parse(json) as StoredAnswerRating]));
    },

    /** The messages, each rated one with its `feedback`. */
    async withFeedback<Message extends ChatMessage>(
      conversationId: string,
      messages: Message[],
    ): Promise<Array<Message & { feedback?: MessageFeedback }>> {
      const hash = await redis.hGetAll(feedbackKey(conversationId));
      return messages.map((message) => {
        const json = hash[message.id];
        if (!json) return message;
        const { rating, reason } = JSON.parse(json) as StoredAnswerRating;
        return { ...message, feedback: { rating, reason } };
      });
    },
  });
}

export type Ratings = ReturnType<typeof createRatings>;

/** A closed conversation with no handoff, as the rule decides it with and without an answer rated down. */
function outcomesOf(answered: boolean): { notRatedDown: Outcome; ratedDown: Outcome } {
  return {
    notRatedDown: decideOutcome({ handoffBy: null, answered, ratedDown: false }),
    ratedDown: decideOutcome({ handoffBy: null, answered, ratedDown: true }),
  };
}
