import type { ConversationView } from './conversation-view.js';

export interface AnswerStreams {
  /**
   * Adds `delta` to the answer to `replyTo` (creating its bubble on first sight; '' just makes sure
   * it is there), or starts it over when `delta` is null (a `reset` event).
   */
  write(replyTo: string, viaPost: boolean, delta: string | null): void;
  /** The request that owned the answer ended early: the events stream carries on with it. */
  release(replyTo: string): void;
  /** The answer is complete: whatever still arrives for it is dropped. */
  complete(replyTo: string): void;
}

/**
 * The answers being written, by the visitor message they answer. Each answer streams in twice: on
 * the request that sent the question and on the events stream. The source that delivers first owns
 * the answer until it lets go, so no token shows twice; the final message, whichever route brings
 * it first, replaces the streamed text anyway.
 */
export function createAnswerStreams(view: Pick<ConversationView, 'showStream'>): AnswerStreams {
  const streams = new Map<string, { text: string; viaPost: boolean }>();
  const completed = new Set<string>();

  return {
    write(replyTo, viaPost, delta) {
      if (completed.has(replyTo)) return;
      let stream = streams.get(replyTo);
      if (!stream) streams.set(replyTo, (stream = { text: '', viaPost }));
      else if (stream.viaPost !== viaPost) return;
      stream.text = delta === null ? '' : stream.text + delta;
      view.showStream(replyTo, stream.text);
    },
    release(replyTo) {
      const stream = streams.get(replyTo);
      if (stream) stream.viaPost = false;
    },
    complete(replyTo) {
      completed.add(replyTo);
      streams.delete(replyTo);
    },
  };
}
