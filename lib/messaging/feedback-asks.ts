/**
 * The messaging channel's feedback asks (docs/insights.md, "Messaging channel"): after a
 * conversation the AI resolved, "Was this helpful?" with Yes / No reply buttons; after one an agent
 * closed, a list of scores 1 to 5. Both are transcript messages (`ask` says which), delivered by the
 * one way out to the platform (`delivery.ts`); a tapped reply comes back with the button's or row's
 * id, which names the conversation it rates.
 */
import { stringsFor } from '#answering/locales.js';
import type { ChatMessage } from '#conversations/chat-message.js';
import type { ClosingFacts, ConversationRef } from '#workflows/conversations/types.js';
import type { Locale } from '#workflows/locales.js';
import { buttonMessage, listMessage, type OutboundPayload } from './outbound-message.js';

export const feedbackAsks = ['answer_feedback', 'satisfaction'] as const;
export type FeedbackAsk = (typeof feedbackAsks)[number];

/**
 * What to ask when a messaging conversation closes with these facts, the customer's window open
 * or not, and an answer of it `rated` already or not: after an agent closed it, the score; after
 * a close with no handoff and a question answered, and nothing rated yet, the buttons; else none.
 */
export function askAtClose(
  ref: Pick<ConversationRef, 'channel'>,
  closing: ClosingFacts,
  { windowOpen, rated }: { windowOpen: boolean; rated: boolean },
): FeedbackAsk | undefined {
  if (ref.channel !== 'messaging' || !windowOpen) return undefined;
  if (closing.closedBy === 'agent') return 'satisfaction';
  return !closing.handoffBy && closing.answered && !rated ? 'answer_feedback' : undefined;
}

/** The transcript message that asks (its id is fixed: one per conversation and kind). */
export function askMessage(ask: FeedbackAsk, locale: Locale, createdAt: string): ChatMessage {
  const strings = stringsFor(locale);
  return {
    id: `ask-${ask}`,
    author: 'system',
    text: ask === 'answer_feedback' ? strings.feedbackAsk : strings.satisfactionAsk,
    createdAt,
    aiGenerated: false,
    ask,
  };
}

/** The send payload of an ask: reply buttons for an answer's rating, a list of five scores. */
export function askPayload(ref: ConversationRef, message: ChatMessage & { ask: FeedbackAsk }): OutboundPayload {
  const to = ref.messaging!.customer;
  const strings = stringsFor(ref.locale);
  const id = ref.conversationId;
  if (message.ask === 'answer_feedback') {
    return buttonMessage(to, message.text, [
      { id: choiceIds.answer('up', id), title: strings.feedbackYes },
      { id: choiceIds.answer('down', id), title: strings.feedbackNo },
    ]);
  }
  const choices = strings.satisfactionScores.map((title, index) => ({ id: choiceIds.satisfaction(index + 1, id), title }));
  return listMessage(to, message.text, choices, { listButton: strings.satisfactionButton });
}

export const choiceIds = {
  answer: (rating: 'up' | 'down', conversationId: string) => `kbfb.${rating}.${conversationId}`,
  satisfaction: (score: number, conversationId: string) => `kbcsat.${score}.${conversationId}`,
};

/** A tapped ask's reply, read from its button's or row's id. */
export type FeedbackChoice =
  | { kind: 'answer'; rating: 'up' | 'down'; conversationId: string }
  | { kind: 'satisfaction'; score: number; conversationId: string };

const uuid = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const answerChoice = new RegExp(`^kbfb\\.(up|down)\\.(${uuid})$`, 'i');
const satisfactionChoice = new RegExp(`^kbcsat\\.([1-5])\\.(${uuid})$`, 'i');

/** The rating a choice id carries, or undefined for any other id (a handoff button, a typo, a forged shape). */
export function readFeedbackChoice(choiceId: string | undefined): FeedbackChoice | undefined {
  if (!choiceId) return undefined;
  const answer = answerChoice.exec(choiceId);
  if (answer) return { kind: 'answer', rating: answer[1] as 'up' | 'down', conversationId: answer[2]!.toLowerCase() };
  const satisfaction = satisfactionChoice.exec(choiceId);
  if (satisfaction)
    return { kind: 'satisfaction', score: Number(satisfaction[1]), conversationId: satisfaction[2]!.toLowerCase() };
  return undefined;
}
