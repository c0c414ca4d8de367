/**
 * The send payloads of what an agent's reply may carry besides text (a template, a file), and the
 * one exception to the 24-hour rule: an approved template may go out after the window has closed.
 */
import type { ChatMessage } from '#conversations/chat-message.js';
import { mediaPayload } from './media.js';
import { templatePayload } from './templates.js';

/**
 * The payloads of a template or file message, or undefined for any other message. A file quotes
 * `replyTo` (the customer message it answers, `context.message_id`) as a text reply does; a template
 * quotes nothing: it is what goes out once the window has closed, when the customer's latest message
 * is a day old or more, and the platform takes it as a new start rather than an answer.
 */
export function extrasPayloads(to: string, message: ChatMessage, replyTo?: string): object[] | undefined {
  if (message.template) return [templatePayload(to, message.template)];
  if (message.attachment) {
    const { caption } = message.attachment;
    const signed = caption && message.agent ? `*${message.agent.name}:* ${caption}` : caption;
    const payload = mediaPayload(to, message.attachment, signed);
    return [replyTo ? { ...payload, context: { message_id: replyTo } } : payload];
  }
  return undefined;
}

/** Whether the platform takes this message after the customer's 24-hour window has closed: templates only. */
export function sendableOutsideWindow(message: ChatMessage): boolean {
  return message.template !== undefined;
}
