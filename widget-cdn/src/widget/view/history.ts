import type { EarlierConversation } from '../chat-types.js';
import type { UiStrings } from '../strings.js';
import { h } from './elements.js';

export interface HistoryList {
  readonly element: HTMLElement;
  /** Lists the conversations (the one shown now marked current) and focuses the first button. */
  show(conversations: EarlierConversation[], strings: UiStrings, locale: string, currentId: string | undefined): void;
}

/**
 * A verified visitor's conversations, in place of the message log: "New conversation", then one
 * button per conversation (its title, date and whether it is still open). Buttons in a labelled
 * list, so the keyboard reaches each one; all text goes in as text nodes.
 */
export function createHistoryList(
  pick: (conversation: EarlierConversation) => void,
  startNew: () => void,
  signal: AbortSignal,
): HistoryList {
  const element = h('ul', { 'data-el': 'history', hidden: true });
  const item = (attributes: Record<string, string | undefined>, onClick: () => void, ...children: Array<Node | string>) => {
    const button = h('button', { type: 'button', ...attributes }, ...children);
    button.addEventListener('click', onClick, { signal });
    return h('li', {}, button);
  };

  return {
    element,
    show(conversations, strings, locale, currentId) {
      element.setAttribute('aria-label', strings.conversations);
      element.replaceChildren(
        item({ 'data-el': 'new' }, startNew, strings.newConversation),
        ...conversations.map((conversation) =>
          item(
            {
              'data-status': conversation.status,
              'aria-current': conversation.conversationId === currentId ? 'true' : undefined,
            },
            () => pick(conversation),
            h('span', {}, conversation.title ?? conversation.lastMessage?.text ?? ''),
            h(
              'small',
              {},
              `${new Date(conversation.updatedAt).toLocaleDateString(locale)} · ${
                conversation.status === 'closed' ? strings.over : strings.open
              }`,
            ),
          ),
        ),
      );
      element.querySelector('button')!.focus();
    },
  };
}
