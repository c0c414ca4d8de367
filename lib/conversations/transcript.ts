import { tagUnavailable } from '#platform/dependency-errors.js';
import type { RedisClient } from '#platform/redis.js';
import type { ChatMessage } from './chat-message.js';
import { conversationKeys } from './redis-keys.js';

/**
 * The durable transcript of a conversation: a Redis list of messages in the order they happened.
 * Activities may run twice (a retry after a lost reply), so a message is appended by id and a
 * repeated id is dropped when read: the first copy stands.
 */
export function createTranscript(redis: RedisClient, prefix: string) {
  const keys = conversationKeys(prefix);

  return tagUnavailable('redis', {
    async append(conversationId: string, message: ChatMessage): Promise<void> {
      await redis.rPush(keys.transcript(conversationId), JSON.stringify(message));
    },

    async read(conversationId: string): Promise<ChatMessage[]> {
      const raw = await redis.lRange(keys.transcript(conversationId), 0, -1);
      const seen = new Set<string>();
      const messages: ChatMessage[] = [];
      for (const json of raw) {
        const message = JSON.parse(json) as ChatMessage;
        if (seen.has(message.id)) continue;
        seen.add(message.id);
        messages.push(message);
      }
      return messages;
    },

    /** The newest message, or undefined for an empty transcript (a repeat is the same message again). */
    async last(conversationId: string): Promise<ChatMessage | undefined> {
      const [json] = await redis.lRange(keys.transcript(conversationId), -1, -1);
      return json === undefined ? undefined : (JSON.parse(json) as ChatMessage);
    },

    /** The first message by `author` among the transcript's first `within` entries, or undefined. */
    async firstBy(conversationId: string, author: ChatMessage['author'], within = 10): Promise<ChatMessage | undefined> {
      const raw = await redis.lRange(keys.transcript(conversationId), 0, within - 1);
      return raw.map((json) => JSON.parse(json) as ChatMessage).find((message) => message.author === author);
    },

    /**
     * The messages from `position` (an index into the list, 0 the first) to the end, each with its
     * position, for a reader that keeps its place (the messaging channel's delivery cursor) and so
     * reads only what is new. Repeats within the slice are dropped as `read` drops them; a repeat of
     * a message before `position` is the reader's to recognise.
     */
    async readFrom(conversationId: string, position: number): Promise<Array<{ position: number; message: ChatMessage }>> {
      const raw = await redis.lRange(keys.transcript(conversationId), position, -1);
      const seen = new Set<string>();
      const entries: Array<{ position: number; message: ChatMessage }> = [];
      raw.forEach((json, offset) => {
        const message = JSON.parse(json) as ChatMessage;
        if (seen.has(message.id)) return;
        seen.add(message.id);
        entries.push({ position: position + offset, message });
      });
      return entries;
    },
  });
}

export type Transcript = ReturnType<typeof createTranscript>;
