import type { ChatMessage } from '../chat-types.js';
import type { ConversationView } from '../conversation-view.js';
import { renderSurvey } from './feedback.js';
import { renderMessage, renderStreamingMessage, type MessageContext } from './message-view.js';

type MessageLog = Pick<
  ConversationView,
  'showMessages' | 'addMessage' | 'showStream' | 'endStream' | 'markFailed' | 'askSatisfaction'
> & {
  scrollToEnd(): void;
};

/** How close to the end (px) the visitor must be for a growing answer to keep the log scrolled down. */
const NEAR_END = 80;

/**
 * The message list (`role="log"`): messages in order, with answers streaming in at the end.
 * `context` is read at each render, so a change of locale shows in everything drawn afterwards.
 */
export function createMessageLog(log: HTMLElement, context: () => MessageContext): MessageLog {
  const streams = new Map<string, ReturnType<typeof renderStreamingMessage>>();
  const render = (message: ChatMessage) => renderMessage(message, context());
  const scrollToEnd = () => {
    log.scrollTop = log.scrollHeight;
  };
  const nearEnd = () => log.scrollHeight - log.scrollTop - log.clientHeight < NEAR_END;

  return {
    showMessages(messages) {
      log.replaceChildren(...messages.map(render), ...[...streams.values()].map((stream) => stream.element));
      scrollToEnd();
    },
    addMessage(message) {
      log.append(render(message));
      scrollToEnd();
    },
    showStream(replyTo, text) {
      const following = nearEnd();
      let stream = streams.get(replyTo);
      if (!stream) {
        streams.set(replyTo, (stream = renderStreamingMessage(context())));
        log.append(stream.element);
      }
      stream.text.textContent = text;
      if (following) scrollToEnd();
    },
    endStream(replyTo, message) {
      const stream = replyTo === undefined ? undefined : streams.get(replyTo);
      if (replyTo !== undefined) streams.delete(replyTo);
      if (!message) stream?.element.remove();
      else if (stream) renderMessage(message, context(), stream.element);
      else log.append(render(message));
      scrollToEnd();
    },
    markFailed(messageId, failed) {
      for (const element of log.children)
        if (element.getAttribute('data-message-id') === messageId) element.toggleAttribute('data-failed', failed);
    },
    askSatisfaction(submit) {
      log.append(renderSurvey(context().strings, submit));
      scrollToEnd();
    },
    scrollToEnd,
  };
}
