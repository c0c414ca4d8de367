import type { UiStrings } from '../strings.js';
import { h } from './elements.js';
import { chatIcon, chevronIcon } from './icons.js';

export interface Launcher {
  readonly element: HTMLButtonElement;
  readonly visible: boolean;
  setTexts(strings: UiStrings): void;
  setExpanded(expanded: boolean): void;
  setUnread(unread: boolean): void;
  setVisible(visible: boolean): void;
}

/**
 * The round button in the corner that opens and closes the chat window. It says which (its label
 * and `aria-expanded`), points at the window (`aria-controls`) and shows a dot for unread messages.
 */
export function createLauncher(panelId: string, onClick: () => void, signal: AbortSignal): Launcher {
  const unread = h('span', { 'data-el': 'unread', hidden: true });
  const button = h(
    'button',
    { type: 'button', 'data-el': 'launcher', 'aria-controls': panelId, 'aria-expanded': 'false' },
    chatIcon(),
    chevronIcon(),
    unread,
  );
  let strings: UiStrings | undefined;
  const label = () => {
    if (!strings) return;
    const expanded = button.getAttribute('aria-expanded') === 'true';
    const open = unread.hidden ? strings.openChat : `${strings.openChat} (${strings.newMessage})`;
    button.setAttribute('aria-label', expanded ? strings.closeChat : open);
  };
  button.addEventListener('click', onClick, { signal });

  return {
    element: button,
    get visible() {
      return !button.hidden;
    },
    setTexts(next) {
      strings = next;
      label();
    },
    setExpanded(expanded) {
      button.setAttribute('aria-expanded', String(expanded));
      label();
    },
    setUnread(value) {
      unread.hidden = !value;
      label();
    },
    setVisible(visible) {
      button.hidden = !visible;
    },
  };
}
