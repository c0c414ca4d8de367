import type { ComposedAnswer } from '#answering/types.js';
import { stringsFor } from '#answering/locales.js';
import type { Locale } from '#workflows/locales.js';
import type { ChatMessage } from './chat-message.js';
import { formatForMessaging, labelAsAi } from './format/messaging.js';
import { formatForWidget } from './format/widget.js';
import type { AgentReplyExtras, Channel } from '#workflows/conversations/types.js';

/**
 * Builders of transcript messages. AI messages are labelled here, by the service, whatever wrote
 * their text: `aiGenerated` and the fixed notice on every channel, and the label line in the text
 * itself on the messaging channel, where no notice area exists.
 */

/** The widget's first message, from the AI in the operator's name. */
export function greetingMessage(options: { operatorName: string; locale: Locale; createdAt: string }): ChatMessage {
  return {
    id: 'greeting',
    ...aiLabel(options.locale),
    text: stringsFor(options.locale).greeting(options.operatorName),
    createdAt: options.createdAt,
  };
}

export function aiAnswerMessage(
  options: { id: string; replyTo: string; channel: Channel; locale: Locale; createdAt: string },
  answer: ComposedAnswer,
): ChatMessage {
  const text = options.channel === 'messaging' ? formatForMessaging(answer, options.locale) : formatForWidget(answer.text);
  return {
    ...aiBase(options),
    text,
    citations: answer.citations,
    outcome: answer.outcome,
  };
}

/** An AI message that is not an answer from the knowledge base (such as passing the customer on). */
export function aiNoticeMessage(
  options: { id: string; replyTo: string; channel: Channel; locale: Locale; createdAt: string },
  text: string,
  outcome: ChatMessage['outcome'],
): ChatMessage {
  return {
    ...aiBase(options),
    text: options.channel === 'messaging' ? labelAsAi(text, options.locale) : text,
    citations: [],
    outcome,
  };
}

export function visitorMessage(id: string, text: string, createdAt: string): ChatMessage {
  return { id, author: 'visitor', text, createdAt, aiGenerated: false };
}

export function agentMessage(
  id: string,
  text: string,
  agentName: string,
  createdAt: string,
  { template, attachment }: AgentReplyExtras = {},
): ChatMessage {
  return {
    id,
    author: 'agent',
    text,
    createdAt,
    aiGenerated: false,
    agent: { name: agentName },
    ...(template ? { template } : {}),
    ...(attachment ? { attachment } : {}),
  };
}

export function systemMessage(id: string, text: string, createdAt: string): ChatMessage {
  return { id, author: 'system', text, createdAt, aiGenerated: false };
}

function aiBase(options: { id: string; replyTo: string; locale: Locale; createdAt: string }) {
  return { id: options.id, ...aiLabel(options.locale), createdAt: options.createdAt, replyTo: options.replyTo };
}

/** What marks every AI message, on every channel: no setting removes it. */
function aiLabel(locale: Locale) {
  return { author: 'ai' as const, aiGenerated: true, aiNotice: stringsFor(locale).aiNotice };
}
