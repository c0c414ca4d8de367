import { log } from '@temporalio/activity';
import { GraphApiError } from '#messaging/graph-client.js';
import { markIfTokenRefused } from '#messaging/token-refusal.js';
import type { ConversationRef } from '#workflows/conversations/types.js';
import type { DeliveryDeps } from '#messaging/delivery.js';

/** What marking read needs: the customer's latest message, the connection's credentials, the platform. */
export type MarkReadDeps = Pick<DeliveryDeps, 'connections' | 'graph'> & {
  channel: Pick<DeliveryDeps['channel'], 'lastCustomerMessageId'>;
};

/**
 * The customer sees their message read, as a person would show it: when the AI starts answering
 * (with "typing…" while it writes) and when an agent replies (the customer's latest message). A
 * receipt is a courtesy: a platform that refuses it (a message too old, say) is logged and the
 * conversation goes on; a refused token marks the connection `token_invalid`, as a refused send does;
 * throttling and server errors are thrown, for a short retry.
 */
export function createMarkReadActivities({ channel, connections, graph }: MarkReadDeps) {
  return {
    async markCustomerMessageRead(input: {
      conversation: ConversationRef;
      /** The customer message to mark (and the ones before it); by default their latest. */
      messageId?: string;
      typing: boolean;
    }): Promise<void> {
      const { conversation: ref } = input;
      if (!ref.messaging) return;
      const messageId = input.messageId ?? (await channel.lastCustomerMessageId(ref.conversationId));
      if (!messageId) return;
      const connection = await connections.get(ref.messaging.connectionId);
      if (!connection || connection.status === 'token_invalid') return;
      const { accessToken } = await connections.credentialsOf(connection);
      try {
        await graph.markRead(
          { apiVersion: connection.apiVersion, phoneNumberId: connection.phoneNumberId, accessToken },
          messageId,
          { typing: input.typing },
        );
      } catch (error) {
        if (!(error instanceof GraphApiError) || error.kind === 'retryable') throw error;
        // A refused token is refused for sends too: the connection says so, and nothing more is sent with it.
        await markIfTokenRefused(connections, connection.id, error);
        log.warn('the platform refused a read receipt', { code: error.code, kind: error.kind });
      }
    },
  };
}
