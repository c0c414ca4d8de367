import type { Citation } from '#answering/types.js';
import type { AgentReplyExtras } from '#workflows/conversations/types.js';

export type Author = 'visitor' | 'ai' | 'agent' | 'system';

/**
 * One message of a transcript, as the chat API returns it. AI messages always carry
 * `aiGenerated: true` and the operator's `aiNotice`: the service sets both, whatever produced the text.
 */
export interface ChatMessage {
  id: string;
  author: Author;
  /** Widget: light markdown for AI messages, plain text otherwise. Messaging: the text as sent. */
  text: string;
  createdAt: string;
  aiGenerated: boolean;
  aiNotice?: string;
  citations?: Citation[];
  /** For AI messages: whether the knowledge base answered, or the AI handed off or failed. */
  outcome?: 'answered' | 'unknown' | 'handoff' | 'failed';
  /** The visitor message an AI message answers. */
  replyTo?: string;
  agent?: { name: string };
  /** Messaging: the approved template an agent sent (`text` is the body the customer received). */
  template?: NonNullable<AgentReplyExtras['template']>;
  /** Messaging: the image or document an agent sent (`text` is `[Image] caption` or `[Document: name] caption`). */
  attachment?: NonNullable<AgentReplyExtras['attachment']>;
  /** Messaging: a system message that asks the customer to rate (`lib/messaging/feedback-asks.ts`), sent as buttons or a list. */
  ask?: 'answer_feedback' | 'satisfaction';
}
