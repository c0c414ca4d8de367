import type { UiStrings } from '../strings.js';
import { h } from './elements.js';
import { closeIcon, listIcon, sendIcon } from './icons.js';

export interface PanelActions {
  /** Sends the text; false when it was not taken, and the text stays in the input. */
  send(text: string): boolean;
  handoff(): void;
  close(): void;
  /** Shows or hides a verified visitor's conversations. */
  history(): void;
  startNew(): void;
}

export interface Panel {
  readonly element: HTMLElement;
  readonly log: HTMLElement;
  setTexts(strings: UiStrings, operatorName: string, locale: string): void;
  setStatusText(text: string): void;
  setHandoffVisible(visible: boolean): void;
  setSending(sending: boolean): void;
  restoreDraft(text: string): void;
  focusInput(): void;
  setHistoryAvailable(available: boolean): void;
  /** The list of conversations (true) or the conversation (false) fills the window. */
  setHistoryShown(shown: boolean): void;
  setReadOnly(readOnly: boolean): void;
}

const INPUT_ID = 'kb-input';
const MAX_INPUT_HEIGHT = 120;
/** The chat API takes at most this many characters per message. */
const MAX_MESSAGE_CHARS = 4000;

/**
 * The chat window: a non-modal dialog with a header (operator name, a verified visitor's
 * conversations, close button), the message log (or, in its place, the list of conversations), a
 * status line, the "talk to a person" button and the message input (or, reading a closed
 * conversation, "New conversation"). Its DOM order is the tab order: conversations, close, list or
 * log, person, input, send. Enter sends, Shift+Enter starts a new line.
 */
export function createPanel(id: string, actions: PanelActions, history: HTMLElement, signal: AbortSignal): Panel {
  const title = h('h2', { 'data-el': 'title' });
  const subtitle = h('p', { 'data-el': 'subtitle' });
  const close = h('button', { type: 'button', 'data-el': 'close' }, closeIcon());
  const historyToggle = h(
    'button',
    { type: 'button', 'data-el': 'history-toggle', 'aria-expanded': 'false', hidden: true },
    listIcon(),
  );
  const restart = h('button', { type: 'button', 'data-el': 'restart', hidden: true });
  const log = h('div', { 'data-el': 'log', role: 'log', 'aria-live': 'polite', 'aria-relevant': 'additions', tabindex: '0' });
  const status = h('p', { 'data-el': 'status', role: 'status' });
  const handoff = h('button', { type: 'button', 'data-el': 'handoff' });
  const label = h('label', { 'data-el': 'input-label', for: INPUT_ID });
  const input = h('textarea', { 'data-el': 'input', id: INPUT_ID, rows: '1', maxlength: String(MAX_MESSAGE_CHARS) });
  const send = h('button', { type: 'submit', 'data-el': 'send' }, sendIcon());
  const composer = h('form', { 'data-el': 'composer' }, label, input, send);
  const element = h(
    'div',
    { 'data-el': 'panel', id, role: 'dialog', 'aria-modal': 'false', hidden: true },
    h('div', { 'data-el': 'header' }, h('div', { 'data-el': 'heading' }, title, subtitle), historyToggle, close),
    history,
    log,
    status,
    h('div', { 'data-el': 'footer' }, restart, handoff, composer),
  );
  const footer = element.lastElementChild as HTMLElement;

  /** The input grows with its text, up to a few lines, then scrolls. */
  const fitInput = () => {
    input.style.height = 'auto';
    input.style.height = `${Math.min(input.scrollHeight, MAX_INPUT_HEIGHT)}px`;
  };
  const submit = () => {
    if (!actions.send(input.value)) return;
    input.value = '';
    fitInput();
  };
  const options = { signal };
  close.addEventListener('click', actions.close, options);
  handoff.addEventListener('click', actions.handoff, options);
  historyToggle.addEventListener('click', actions.history, options);
  restart.addEventListener('click', actions.startNew, options);
  input.addEventListener('input', fitInput, options);
  composer.addEventListener(
    'submit',
    (event) => {
      event.preventDefault();
      submit();
    },
    options,
  );
  input.addEventListener(
    'keydown',
    (event) => {
      if (event.key !== 'Enter' || event.shiftKey || event.isComposing) return;
      event.preventDefault();
      submit();
    },
    options,
  );

  return {
    element,
    log,
    setTexts(strings, operatorName, locale) {
      element.setAttribute('aria-label', operatorName);
      element.lang = locale;
      title.textContent = operatorName;
      subtitle.textContent = strings.subtitle;
      close.setAttribute('aria-label', strings.closeChat);
      log.setAttribute('aria-label', strings.messages);
      handoff.textContent = strings.handoff;
      historyToggle.setAttribute('aria-label', strings.conversations);
      restart.textContent = strings.newConversation;
      label.textContent = strings.inputLabel;
      input.placeholder = strings.placeholder;
      send.setAttribute('aria-label', strings.send);
    },
    setStatusText(text) {
      status.textContent = text;
    },
    setHandoffVisible(visible) {
      // The button may vanish under the visitor's focus (they just asked for a person): keep focus in the window.
      if (!visible && (element.getRootNode() as ShadowRoot).activeElement === handoff) input.focus();
      handoff.hidden = !visible;
    },
    setSending(sending) {
      send.disabled = sending;
    },
    restoreDraft(text) {
      if (input.value) return;
      input.value = text;
      fitInput();
    },
    focusInput() {
      (composer.hidden ? restart : input).focus();
    },
    setHistoryAvailable(available) {
      historyToggle.hidden = !available;
    },
    setHistoryShown(shown) {
      history.hidden = !shown;
      log.hidden = status.hidden = footer.hidden = shown;
      historyToggle.setAttribute('aria-expanded', String(shown));
    },
    setReadOnly(readOnly) {
      composer.hidden = readOnly;
      restart.hidden = !readOnly;
      if (readOnly) handoff.hidden = true;
    },
  };
}
