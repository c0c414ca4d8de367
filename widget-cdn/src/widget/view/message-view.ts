import { isRateable, type ChatMessage } from '../chat-types.js';
import type { UiStrings } from '../strings.js';
import { h } from './elements.js';
import { renderRating, type Rate } from './feedback.js';
import { renderCitations, renderRichText } from './rich-text.js';

export interface MessageContext {
  strings: UiStrings;
  /** The AI notice when a message brings none: the configuration's, else the built-in one. */
  aiNotice: string;
  /** Rates an AI answer; absent, answers show no rating buttons. */
  rate?: Rate;
}

/**
 * One message of the log. AI text is light markdown; everyone else's is plain text. Every AI
 * message carries the AI notice, visibly: nothing (no option, no command) leaves it out. Given an
 * `element`, that element becomes the message: the bubble an answer streamed into stays the same
 * node, so whoever holds on to it sees it complete.
 */
export function renderMessage(message: ChatMessage, context: MessageContext, element: HTMLElement = h('div')): HTMLElement {
  const ai = message.author === 'ai';
  const text = h('div', { 'data-el': 'text' });
  if (ai) text.append(renderRichText(message.text, message.citations));
  else text.textContent = message.text;
  const bubble = h('div', { 'data-el': 'bubble' }, text);
  if (ai && message.citations?.length) bubble.append(renderCitations(message.citations, context.strings.sources));

  element.removeAttribute('data-streaming');
  element.removeAttribute('aria-busy');
  element.setAttribute('data-el', 'message');
  element.setAttribute('data-author', message.author);
  element.setAttribute('data-message-id', message.id);
  element.replaceChildren(
    ...(message.author === 'agent' ? [h('span', { 'data-el': 'author' }, message.agent?.name || context.strings.agent)] : []),
    bubble,
    ...(ai ? [aiNotice(message.aiNotice || context.aiNotice, context.strings)] : []),
    ...(context.rate && isRateable(message) ? [renderRating(message, context.strings, context.rate)] : []),
  );
  return element;
}

/**
 * The bubble of an answer being written: plain text as tokens arrive (markdown half-written would
 * flicker), busy so that screen readers wait for the final text instead of reading every token.
 */
export function renderStreamingMessage(context: MessageContext): { element: HTMLElement; text: HTMLElement } {
  const text = h('div', { 'data-el': 'text' });
  const element = h(
    'div',
    { 'data-el': 'message', 'data-author': 'ai', 'data-streaming': true, 'aria-busy': 'true' },
    h('div', { 'data-el': 'bubble' }, text),
    aiNotice(context.aiNotice, context.strings),
  );
  return { element, text };
}

function aiNotice(notice: string, strings: UiStrings): HTMLElement {
  return h(
    'p',
    { 'data-el': 'ai-notice' },
    h('span', { 'data-el': 'ai-badge', 'aria-hidden': 'true' }, strings.aiBadge),
    String(notice),
  );
}
