/** What the chat API sends and takes (its schemas live in api/schemas/chat.ts on the server). */

export type Author = 'visitor' | 'ai' | 'agent' | 'system';

export type ConversationStatus = 'ai' | 'waiting_for_agent' | 'agent' | 'closed';

export interface Citation {
  n: number;
  title: string;
  url: string | null;
  externalId?: string;
  sourceType?: string;
}

export interface ChatMessage {
  id: string;
  author: Author;
  /** AI messages: light markdown. Everyone else: plain text. */
  text: string;
  createdAt: string;
  aiGenerated: boolean;
  aiNotice?: string;
  citations?: Citation[];
  outcome?: string;
  replyTo?: string;
  agent?: { name: string };
  /** The visitor's rating of an AI answer, once given. */
  feedback?: { rating: Rating; reason?: string | null };
}

export type Rating = 'up' | 'down';

/** AI answers (not notices, not the greeting) can be rated. */
export function isRateable(message: ChatMessage): boolean {
  return (
    message.author === 'ai' && message.id !== 'greeting' && (message.outcome === 'answered' || message.outcome === 'unknown')
  );
}

export interface WidgetConfig {
  operatorId: string;
  name: string;
  greeting: string;
  locale: string;
  aiNotice: string;
  /** The operator talks to verified visitors only. */
  identityRequired?: boolean;
}

export interface Contact {
  userId?: string;
  email?: string;
  name?: string;
}

/** What identifies the visitor's conversation; kept in localStorage so a reload continues it. */
export interface ConversationKeys {
  conversationId: string;
  visitorToken: string;
  /** The signed-in user the conversation was verified as; only they continue it on this browser. */
  userId?: string;
}

export interface StartedConversation extends ConversationKeys {
  status: ConversationStatus;
  messages: ChatMessage[];
}

/** A verified visitor's session and their conversations with the operator, newest first (`POST /chat/identity`). */
export interface VerifiedVisitor {
  visitorToken: string;
  userId: string;
  conversations: EarlierConversation[];
}

/** One of a verified visitor's conversations, as `POST /chat/identity` and `GET /chat/identity/conversations` list them. */
export interface EarlierConversation {
  conversationId: string;
  status: ConversationStatus;
  updatedAt: string;
  /** The visitor's first message (the start of it); null before they wrote one. */
  title: string | null;
  lastMessage: ChatMessage | null;
}

export interface ConversationHistory {
  status: ConversationStatus;
  messages: ChatMessage[];
}

const statuses: readonly string[] = ['ai', 'waiting_for_agent', 'agent', 'closed'];
const authors: readonly string[] = ['visitor', 'ai', 'agent', 'system'];

export function isStatus(value: unknown): value is ConversationStatus {
  return statuses.includes(value as string);
}

/** Just enough of a check that a message from an event stream can be shown without surprises. */
export function isChatMessage(value: unknown): value is ChatMessage {
  const message = value as ChatMessage | null;
  return typeof message?.id === 'string' && authors.includes(message.author) && typeof message.text === 'string';
}
