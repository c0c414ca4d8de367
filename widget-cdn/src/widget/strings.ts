import type { ConversationStatus } from './chat-types.js';

/** The widget speaks English and German; any `de…` language tag is German, everything else English. */
export type Locale = 'en' | 'de';

export function resolveLocale(requested: string | undefined, browserLanguage: string | undefined): Locale {
  return /^de/i.test(requested ?? browserLanguage ?? '') ? 'de' : 'en';
}

/** The notices the status line shows after something went wrong (they win over the status text). */
export type Notice =
  | 'replyDelayed'
  | 'sendFailed'
  | 'tooFast'
  | 'ended'
  | 'loadFailed'
  | 'handoffFailed'
  | 'identityRefused'
  | 'identityNeeded'
  | 'feedbackFailed';

export interface UiStrings extends Record<Notice, string> {
  openChat: string;
  closeChat: string;
  newMessage: string;
  subtitle: string;
  messages: string;
  inputLabel: string;
  placeholder: string;
  send: string;
  handoff: string;
  waiting: string;
  chattingWith(name: string): string;
  withAgent: string;
  agent: string;
  closed: string;
  /** Shown under an AI answer when neither the message nor the configuration brings its own. */
  aiNotice: string;
  aiBadge: string;
  sources: string;
  conversations: string;
  newConversation: string;
  open: string;
  over: string;
  helpful: string;
  notHelpful: string;
  /** The optional reason box after "not helpful". */
  whatMissing: string;
  thanks: string;
  rateConversation: string;
  score(n: number): string;
}

const en: UiStrings = {
  openChat: 'Open chat',
  closeChat: 'Close chat',
  newMessage: 'new message',
  subtitle: 'AI assistant',
  messages: 'Messages',
  inputLabel: 'Your message',
  placeholder: 'Write a message…',
  send: 'Send',
  handoff: 'Talk to a person',
  waiting: 'Waiting for a person…',
  chattingWith: (name) => `You are chatting with ${name}`,
  withAgent: 'You are chatting with a person',
  agent: 'Support',
  closed: 'This conversation has ended',
  aiNotice: 'AI-generated answer',
  aiBadge: 'AI',
  sources: 'Sources',
  replyDelayed: 'The answer is taking longer than usual. It will appear here.',
  sendFailed: 'Could not send your message. Try again.',
  tooFast: 'You are sending messages too fast. Wait a moment, then try again.',
  identityRefused: 'Please sign in again to chat with us.',
  identityNeeded: 'Please sign in to chat with us.',
  conversations: 'Your conversations',
  newConversation: 'New conversation',
  open: 'Open',
  over: 'Ended',
  helpful: 'Helpful',
  notHelpful: 'Not helpful',
  whatMissing: 'What was missing? (optional)',
  thanks: 'Thank you for your feedback.',
  rateConversation: 'How was your conversation?',
  score: (n) => `${n} of 5`,
  ended: 'This conversation has ended. Send a message to start a new one.',
  loadFailed: 'Could not load the conversation. Try again later.',
  handoffFailed: 'Could not ask for a person. Try again.',
  feedbackFailed: 'Could not send your feedback. Try again.',
};

const de: UiStrings = {
  openChat: 'Chat öffnen',
  closeChat: 'Chat schließen',
  newMessage: 'neue Nachricht',
  subtitle: 'KI-Assistent',
  messages: 'Nachrichten',
  inputLabel: 'Ihre Nachricht',
  placeholder: 'Nachricht schreiben…',
  send: 'Senden',
  handoff: 'Mit einer Person sprechen',
  waiting: 'Warten auf eine Person…',
  chattingWith: (name) => `Sie schreiben mit ${name}`,
  withAgent: 'Sie schreiben mit einer Person',
  agent: 'Support',
  closed: 'Dieses Gespräch ist beendet',
  aiNotice: 'KI-generierte Antwort',
  aiBadge: 'KI',
  sources: 'Quellen',
  replyDelayed: 'Die Antwort dauert länger als üblich. Sie erscheint hier.',
  sendFailed: 'Ihre Nachricht konnte nicht gesendet werden. Bitte versuchen Sie es erneut.',
  tooFast: 'Sie senden zu schnell. Warten Sie einen Moment und versuchen Sie es dann erneut.',
  identityRefused: 'Bitte melden Sie sich erneut an, um mit uns zu chatten.',
  identityNeeded: 'Bitte melden Sie sich an, um mit uns zu chatten.',
  conversations: 'Ihre Gespräche',
  newConversation: 'Neues Gespräch',
  open: 'Offen',
  over: 'Beendet',
  helpful: 'Hilfreich',
  notHelpful: 'Nicht hilfreich',
  whatMissing: 'Was hat gefehlt? (optional)',
  thanks: 'Vielen Dank für Ihr Feedback.',
  rateConversation: 'Wie war Ihr Gespräch?',
  score: (n) => `${n} von 5`,
  ended: 'Dieses Gespräch ist beendet. Schreiben Sie eine Nachricht, um ein neues zu beginnen.',
  loadFailed: 'Das Gespräch konnte nicht geladen werden. Bitte versuchen Sie es später erneut.',
  handoffFailed: 'Die Anfrage nach einer Person ist fehlgeschlagen. Bitte versuchen Sie es erneut.',
  feedbackFailed: 'Ihr Feedback konnte nicht gesendet werden. Bitte versuchen Sie es erneut.',
};

export function stringsFor(locale: Locale): UiStrings {
  return locale === 'de' ? de : en;
}

/**
 * What the status line says about the conversation's status (a state, not an event: the transcript
 * itself says when someone joined); empty while the AI answers.
 */
export function statusText(strings: UiStrings, status: ConversationStatus, agentName: string | undefined): string {
  if (status === 'waiting_for_agent') return strings.waiting;
  if (status === 'agent') return agentName ? strings.chattingWith(agentName) : strings.withAgent;
  return status === 'closed' ? strings.closed : '';
}
