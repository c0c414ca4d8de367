import type { TokenSink } from '#answering/types.js';
import type { ConversationEvent } from '#conversations/events.js';

/**
 * A token sink that publishes each token as a conversation event, in order, without making the
 * generator wait for Redis; `flush()` waits until everything sent so far is published.
 */
export function createTokenStream(
  publish: (event: ConversationEvent) => Promise<void>,
  replyTo: string,
  onToken: () => void = () => undefined,
): TokenSink & { flush(): Promise<void> } {
  let chain = Promise.resolve();
  let failure: { error: unknown } | undefined;
  // After a failed publish the rest is dropped; `flush` reports the failure.
  const send = (event: ConversationEvent) => {
    chain = chain
      .then(() => (failure ? undefined : publish(event)))
      .catch((error: unknown) => {
        failure ??= { error };
      });
  };
  return {
    token(delta) {
      if (!delta) return;
      onToken();
      send({ type: 'token', replyTo, delta });
    },
    reset() {
      send({ type: 'reset', replyTo });
    },
    async flush() {
      await chain;
      if (failure) throw failure.error;
    },
  };
}
