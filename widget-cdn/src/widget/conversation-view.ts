import type { ChatMessage, ConversationStatus } from './chat-types.js';
import type { Notice } from './strings.js';

/** What the conversation shows; the panel's message log and status line implement it. */
export interface ConversationView {
  showMessages(messages: readonly ChatMessage[]): void;
  addMessage(message: ChatMessage): void;
  /** The answer to the visitor message `replyTo` as it streams in: plain text so far. */
  showStream(replyTo: string, text: string): void;
  /** That answer is complete: shown as `message`, or taken away when no AI answer comes. */
  endStream(replyTo: string | undefined, message?: ChatMessage): void;
  markFailed(messageId: string, failed: boolean): void;
  /** Puts a message that could not be sent back into the empty input, so that trying again is one key press. */
  restoreDraft(text: string): void;
  setStatus(status: ConversationStatus, agentName: string | undefined): void;
  setNotice(notice: Notice | undefined): void;
  setSending(sending: boolean): void;
  /** A closed conversation read from the list: its transcript only, no input. */
  setReadOnly(readOnly: boolean): void;
  /** A verified visitor's session is open: their conversations can be listed. */
  setHistoryAvailable(available: boolean): void;
  /** An agent closed the conversation: the visitor may score it 1–5 (`submit` is true once the service has it). */
  askSatisfaction(submit: (score: number) => Promise<boolean>): void;
}
