import type { ChatMessage } from '#conversations/chat-message.js';
import type { EventPublisher } from '#conversations/events.js';
import type { SearchChanges } from '#conversations/search/changes.js';
import type { Transcript } from '#conversations/transcript.js';
import type { EventEmitter } from '#outbound-events/emitter.js';
import { messageCreated } from '#outbound-events/facts.js';
import type { ConversationRef } from '#workflows/conversations/types.js';

export interface MessageRecordingDeps {
  transcript: Pick<Transcript, 'append'>;
  events: EventPublisher;
  searchChanges?: Pick<SearchChanges, 'markChanged'>;
  outboundEvents?: Pick<EventEmitter, 'emit'>;
}

/**
 * How every activity writes a message of the conversation: into the transcript, marked for the search
 * index, told to the conversation's followers (the widget, the agents) and to the tenant's endpoints.
 * A retried activity writes the same message (its id derives from the workflow's input), read once.
 */
export function messageRecorder({ transcript, events, searchChanges, outboundEvents }: MessageRecordingDeps) {
  return async (ref: ConversationRef, message: ChatMessage): Promise<void> => {
    await transcript.append(ref.conversationId, message);
    // Durable once marked: a retried activity marks again, which is harmless.
    await searchChanges?.markChanged(ref.tenantId, ref.conversationId);
    await events.publish(ref.conversationId, { type: 'message', message });
    await outboundEvents?.emit(ref.tenantId, messageCreated(ref, message));
  };
}
