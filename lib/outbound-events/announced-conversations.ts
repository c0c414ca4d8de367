import type { ConversationClient } from '#conversations/workflow-client.js';
import type { EventEmitter } from './emitter.js';
import { conversationCreated } from './facts.js';

/**
 * The conversation client, telling the tenant's event endpoints of each conversation it starts
 * (`conversation.created`): the widget's `start`, once the workflow runs (its record is removed
 * when the start fails; the visitor can write nothing before the answer, so the event precedes
 * every message); and the messaging channel's `receiveCustomerMessage`, which starts one with its
 * first message, just before it (the record is written; the worker could otherwise record that
 * message, `message.created`, ahead of this event). A repeat emits the same event id, delivered
 * once. The conversation stands whether or not the event could be handed over: `failed` hears of an
 * emission that failed, and the request goes on.
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
      await announce(args[0]);
      await client.receiveCustomerMessage(...args);
    },
  };
}
