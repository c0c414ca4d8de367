import { conversationKeys } from '#conversations/redis-keys.js';
import { createTranscript } from '#conversations/transcript.js';
import type { RatingsStore } from '#messaging/feedback-replies.js';
import type { RedisClient } from '#platform/redis.js';

/**
 * A small stand-in for the ratings store (`insights/ratings.ts`, another part of the work): it
 * writes a rating where docs/insights.md keeps it, the conversation's feedback hash (field: the
 * message id, value: JSON with `rating`), and a score in its `…:satisfaction` hash. No counters.
 */
export function createTestRatings(redis: RedisClient, prefix: string): RatingsStore {
  const keys = conversationKeys(prefix);
  const transcript = createTranscript(redis, prefix);
  return {
    async rateAnswer({ conversationId, messageId, rating, reason }) {
      const message = (await transcript.read(conversationId)).find((entry) => entry.id === messageId);
      if (message?.author !== 'ai' || !['answered', 'unknown'].includes(message.outcome ?? '')) return undefined;
      const rated = { messageId, rating, reason: reason ?? null, ratedAt: new Date().toISOString() };
      await redis.hSet(keys.feedback(conversationId), messageId, JSON.stringify(rated));
      return rated;
    },
    async rateSatisfaction({ conversationId, score }) {
      const rated = { score, ratedAt: new Date().toISOString() };
      await redis.hSet(`${keys.record(conversationId)}:satisfaction`, { score: String(score), ratedAt: rated.ratedAt });
      return rated;
    },
  };
}

/** What is rated in a conversation: its feedback hash, message id → rating. */
export async function ratingsOf(redis: RedisClient, prefix: string, conversationId: string): Promise<Record<string, string>> {
  const hash = await redis.hGetAll(conversationKeys(prefix).feedback(conversationId));
  return Object.fromEntries(Object.entries(hash).map(([id, value]) => [id, (JSON.parse(value) as { rating: string }).rating]));
}
