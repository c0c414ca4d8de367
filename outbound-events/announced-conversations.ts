import type { ConversationClient } from '#conversations/workflow-client.js';
import type { EventEmitter } from './emitter.js';
import { conversationCreated } from './facts.js';

/**
 * The conversation client, telling the tenant's event endpoints of each conversation it starts
 * (`conversation.created`) once its workflow runs: the widget's `start`, and the messaging
 * channel's `receiveCustomerMessage`, which starts one with its first message (a repeat emits the
 * same event id, delivered once). The conversation stands whether or not the event could be handed
 * over: `failed` hears of an emission that failed, and the request goes on.
 */
export function announcingCreation<Client extends Pick<ConversationClient, 'start' | 'receiveCustomerMessage'>>(
  client: Client,
  emitter: Pick<EventEmitter, 'emit'>,
  failed: (error: unknown) => void,
): Client {
  const announce = (ref: Parameters<ConversationClient['start']>[0]) =>
    emitter.emit(ref.tenantId, conversationCreated(ref)).catch(failed);
  return {
    ...client,
    async start(...args: Parameters<ConversationClient['start']>) {
      await client.start(...args);
      await announce(args[0]);
    },
    async receiveCustomerMessage(...args: Parameters<ConversationClient['receiveCustomerMessage']>) {
      await client.receiveCustomerMessage(...args);
      await announce(args[0]);
    },
  };
}
