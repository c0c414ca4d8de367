import type { ChatMessage } from './chat-types.js';
import type { ConversationView } from './conversation-view.js';

export interface MessageList {
  has(id: string): boolean;
  /**
   * Shows the message unless it is shown already (false then). With `replyTo`, it is the answer to
   * that visitor message and takes the place of its streamed bubble.
   */
  add(message: ChatMessage, replyTo?: string): boolean;
  /** A history read from the server: it goes first, then whatever the events stream brought that it lacks. */
  merge(history: ChatMessage[]): void;
  /** Shows every message again, `replacement` instead of the message with its id. */
  showAll(replacement?: ChatMessage): void;
  /** Forgets every message (another conversation is shown next). */
  clear(): void;
}

/**
 * The conversation's messages in the order they are shown, each once by id, however many routes
 * bring it: an answer arrives on the request that sent the question and on the events stream, the
 * visitor's own messages come back on the events stream, and a history read after a reload
 * overlaps with what the stream has already brought.
 */
export function createMessageList(view: Pick<ConversationView, 'addMessage' | 'endStream' | 'showMessages'>): MessageList {
  const messages: ChatMessage[] = [];
  const shown = new Set<string>();

  return {
    has: (id) => shown.has(id),
    add(message, replyTo) {
      if (shown.has(message.id)) return false;
      shown.add(message.id);
      messages.push(message);
      if (replyTo === undefined) view.addMessage(message);
      else view.endStream(replyTo, message);
      return true;
    },
    merge(history) {
      const ids = new Set(history.map((message) => message.id));
      messages.splice(0, messages.length, ...history, ...messages.filter((message) => !ids.has(message.id)));
      for (const { id, replyTo } of history) {
        shown.add(id);
        // An answer the stream was still writing is complete in the history: its bubble goes.
        if (replyTo) view.endStream(replyTo);
      }
      view.showMessages(messages);
    },
    showAll(replacement) {
      const at = replacement ? messages.findIndex((message) => message.id === replacement.id) : -1;
      if (at >= 0) messages[at] = replacement!;
      view.showMessages(messages);
    },
    clear() {
      messages.length = 0;
      shown.clear();
      view.showMessages(messages);
    },
  };
}
