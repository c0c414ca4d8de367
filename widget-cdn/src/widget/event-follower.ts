import { ApiError, type ChatApi } from './chat-api.js';
import type { ConversationKeys } from './chat-types.js';
import type { Lifetime } from './lifetime.js';
import type { ServerEvent } from './server-events.js';

const RETRY_MS = 1_000;
const MAX_RETRY_MS = 30_000;

export interface FollowInput {
  api: ChatApi;
  keys: ConversationKeys;
  /** Following stops when it ends. */
  lifetime: Lifetime;
  onEvent(event: ServerEvent): void;
  /** The conversation is not (or no longer) the visitor's: 401, 403 or 404. Following has stopped. */
  onGone(): void;
}

/**
 * Keeps a conversation's events stream open for as long as `lifetime` lasts. When the stream drops
 * it reconnects after a backoff (1 s, doubling up to 30 s, plus up to 1 s of jitter so that a
 * restarted server is not hit by every widget at once; a 429's Retry-After wins) and resumes after
 * the last event id it saw.
 */
export function followConversation({ api, keys, lifetime, onEvent, onGone }: FollowInput): void {
  const { signal } = lifetime;
  let lastEventId: string | undefined;
  let failures = 0;

  const receive = (event: ServerEvent) => {
    failures = 0;
    lastEventId = event.id ?? lastEventId;
    onEvent(event);
  };

  void (async () => {
    while (!signal.aborted) {
      let retryAfter: number | undefined;
      try {
        await api.follow(keys, lastEventId, receive, signal);
      } catch (error) {
        if (signal.aborted) return;
        const status = error instanceof ApiError ? error.status : 0;
        if (status === 401 || status === 403 || status === 404) return onGone();
        // An id the server no longer knows: start from now rather than fail forever.
        if (status === 400) lastEventId = undefined;
        retryAfter = (error as Partial<ApiError>).retryAfterMs;
      }
      await lifetime.delay(retryAfter ?? Math.min(RETRY_MS * 2 ** failures++, MAX_RETRY_MS) + Math.random() * RETRY_MS);
    }
  })();
}
