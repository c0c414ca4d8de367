import type { ChatApi } from './chat-api.js';
import type { ConversationStatus } from './chat-types.js';
import { createConversation } from './conversation.js';
import type { WidgetEvents } from './events.js';
import { createFocusReturn } from './focus.js';
import { userOfToken } from './identity.js';
import type { Lifetime } from './lifetime.js';
import type { OptionChanges, WidgetOptions } from './options.js';
import { createSavedConversation } from './saved-conversation.js';
import { resolveLocale, statusText, stringsFor, type Locale, type Notice } from './strings.js';
import { createHistoryList } from './view/history.js';
import { createLauncher } from './view/launcher.js';
import { createMessageLog } from './view/message-log.js';
import { createPanel } from './view/panel.js';
import { createShell } from './view/shell.js';

/** The chat window's id inside the shadow root, for the launcher's aria-controls. */
const PANEL_ID = 'kb-panel';

/** A running widget: what the commands act on once `init` has succeeded. */
export interface ChatWidget {
  readonly element: HTMLElement;
  readonly operatorId: string;
  readonly locale: Locale;
  open(opener?: Element): void;
  close(): void;
  toggle(opener?: Element): void;
  show(): void;
  hide(): void;
  /** Applies option changes; returns a promise only when it has to wait (a new locale's configuration). */
  update(changes: OptionChanges): Promise<void> | undefined;
  /** Takes the widget element off the page (ending the lifetime stops everything else). */
  remove(): void;
}

export interface ChatWidgetDeps {
  win: Window;
  api: ChatApi;
  events: WidgetEvents;
  lifetime: Lifetime;
}

/**
 * Fetches the operator's configuration, then builds the widget on the page: the launcher, the
 * closed chat window and the conversation behind it. Rejects (rendering nothing) when the
 * configuration cannot be had.
 */
export async function startChatWidget(
  options: WidgetOptions,
  { win, api, events, lifetime }: ChatWidgetDeps,
): Promise<ChatWidget> {
  const doc = win.document;
  const { signal } = lifetime;
  let locale = resolveLocale(options.locale, win.navigator.language);
  let config = await api.config(locale);
  let strings = stringsFor(locale);
  let contact = options.contact;
  let identity = options.identityToken;
  // Who the page signs in: known at once from a token given as a string, only once fetched from a function.
  const pageUser = typeof identity === 'string' ? userOfToken(identity) : identity ? undefined : null;
  let isOpen = false;
  let status: ConversationStatus = 'ai';
  let agentName: string | undefined;
  let notice: Notice | undefined;

  const { host, root } = createShell(doc, options.panelId);
  const launcher = createLauncher(PANEL_ID, () => toggle(), signal);
  let historyShown = false;
  const showHistory = (shown: boolean) => {
    historyShown = shown;
    panel.setHistoryShown(shown);
    if (!shown) panel.focusInput();
  };
  const startNew = () => {
    conversation.startNew();
    showHistory(false);
  };
  const history = createHistoryList(
    (earlier) => {
      // Read-only or not is set at once (before the history arrives), so focus lands on what is there.
      void conversation.openEarlier(earlier);
      showHistory(false);
    },
    startNew,
    signal,
  );
  const panel = createPanel(
    PANEL_ID,
    {
      send: (text) => conversation.send(text),
      handoff: () => void conversation.handoff(),
      close: () => close(),
      async history() {
        if (historyShown) return showHistory(false);
        const earlier = await conversation.earlier();
        if (!earlier) return;
        showHistory(true);
        history.show(earlier, strings, locale, conversation.current());
      },
      startNew,
    },
    history.element,
    signal,
  );
  const log = createMessageLog(panel.log, () => ({
    strings,
    aiNotice: config.aiNotice || strings.aiNotice,
    rate: (messageId, rating, reason) => conversation.rate(messageId, rating, reason),
  }));
  const focus = createFocusReturn(doc, host);

  const showStatus = () => {
    panel.setStatusText(notice ? strings[notice] : statusText(strings, status, agentName));
    panel.setHandoffVisible(status === 'ai');
  };

  const conversation = createConversation({
    api,
    lifetime,
    saved: createSavedConversation(() => win.localStorage, options.operatorKey),
    view: {
      ...log,
      setStatus(next, name) {
        status = next;
        agentName = name;
        showStatus();
      },
      setNotice(next) {
        notice = next;
        showStatus();
      },
      setSending: panel.setSending,
      restoreDraft: panel.restoreDraft,
      setReadOnly: panel.setReadOnly,
      setHistoryAvailable: panel.setHistoryAvailable,
    },
    greeting: () => ({
      id: 'greeting',
      author: 'ai',
      text: config.greeting,
      createdAt: new Date().toISOString(),
      aiGenerated: true,
      aiNotice: config.aiNotice,
    }),
    startInput: () => ({ contact, locale }),
    pageUser: () => pageUser,
    identityRequired: () => config.identityRequired === true,
    async identityToken() {
      const source = identity;
      // A token given as a string is taken once by the service: it is not sent twice.
      if (typeof source === 'string') identity = undefined;
      const token = typeof source === 'function' ? await source() : source;
      return typeof token === 'string' && token.trim() ? token.trim() : undefined;
    },
    onSent: (message) => events.emit('message:sent', { message }),
    onReceived: (message) => {
      if (!isOpen) launcher.setUnread(true);
      events.emit('message:received', { message });
    },
    onError: (code, message) => events.emit('error', { code, message }),
  });

  const showTexts = () => {
    launcher.setTexts(strings);
    panel.setTexts(strings, config.name, locale);
    showStatus();
    conversation.rerender();
  };

  function open(opener?: Element): void {
    if (isOpen) return;
    isOpen = true;
    focus.remember(opener);
    panel.element.hidden = false;
    launcher.setExpanded(true);
    launcher.setUnread(false);
    void conversation.prepare();
    log.scrollToEnd();
    panel.focusInput();
    events.emit('open', {});
  }

  function close(): void {
    if (!isOpen) return;
    isOpen = false;
    panel.element.hidden = true;
    launcher.setExpanded(false);
    focus.restore(launcher.visible ? launcher.element : undefined);
    events.emit('close', {});
  }

  function toggle(opener?: Element): void {
    if (isOpen) close();
    else open(opener);
  }

  // Escape anywhere inside the widget closes the window.
  root.addEventListener('keydown', (event) => (event as KeyboardEvent).key === 'Escape' && close(), { signal });
  launcher.setVisible(options.showLauncher);
  root.append(launcher.element, panel.element);
  showTexts();
  doc.body.append(host);

  return {
    element: host,
    get operatorId() {
      return config.operatorId;
    },
    get locale() {
      return locale;
    },
    open,
    close,
    toggle,
    show: () => launcher.setVisible(true),
    hide: () => launcher.setVisible(false),
    update(changes) {
      if (changes.contact) contact = changes.contact;
      if (changes.identityToken) identity = changes.identityToken;
      if (changes.showLauncher !== undefined) launcher.setVisible(changes.showLauncher);
      if (changes.panelId) host.id = changes.panelId;
      const next = changes.locale && resolveLocale(changes.locale, win.navigator.language);
      if (!next || next === locale) return undefined;
      return api.config(next).then((fetched) => {
        config = fetched;
        locale = next;
        strings = stringsFor(next);
        showTexts();
      });
    },
    remove: () => host.remove(),
  };
}
