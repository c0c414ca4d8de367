import { createAnswerStreams } from './answer-streams.js';
import { ApiError, type ChatApi } from './chat-api.js';
import {
  isChatMessage,
  isStatus,
  type ChatMessage,
  type Contact,
  type ConversationKeys,
  type ConversationStatus,
  type EarlierConversation,
  type Rating,
} from './chat-types.js';
import type { ConversationView } from './conversation-view.js';
import { followConversation } from './event-follower.js';
import { userOfToken } from './identity.js';
import type { Lifetime } from './lifetime.js';
import { createMessageList } from './message-list.js';
import { newMessageId } from './message-id.js';
import type { SavedConversation } from './saved-conversation.js';
import type { ServerEvent } from './server-events.js';
import type { Notice } from './strings.js';

export interface ConversationDeps {
  api: ChatApi;
  saved: SavedConversation;
  view: ConversationView;
  lifetime: Lifetime;
  /** The configuration's greeting, shown as an AI message before any conversation exists. */
  greeting(): ChatMessage;
  /** What the next conversation starts with (`update` can change both). */
  startInput(): { contact?: Contact; locale: string };
  /** A fresh identity token from the page, or undefined when it gave none (or only one, already used). */
  identityToken(): Promise<string | undefined>;
  /** Who the page signs in: a user id, null for no one, undefined when unknown until a token is fetched. */
  pageUser(): string | null | undefined;
  /** The operator talks to verified visitors only (`/chat/config`). */
  identityRequired(): boolean;
  onSent(message: ChatMessage): void;
  onReceived(message: ChatMessage): void;
  onError(code: string, message: string): void;
}

export interface Conversation {
  /** Called on every open; the first time it shows the remembered conversation's history, or the greeting. */
  prepare(): Promise<void>;
  /** Sends a visitor message; false when it was not taken (blank, or another one is being sent). */
  send(text: string): boolean;
  handoff(): Promise<void>;
  /** Shows every message again, after a change of locale (the local greeting in the new words). */
  rerender(): void;
  /** A verified visitor's conversations, newest first (undefined when they cannot be had; the notice says why). */
  earlier(): Promise<EarlierConversation[] | undefined>;
  /** The conversation shown now, if any. */
  current(): string | undefined;
  /** Shows one of them: an open one continues, a closed one is read only. */
  openEarlier(conversation: EarlierConversation): Promise<void>;
  /** Leaves the conversation shown for a new one, started by the next message. */
  startNew(): void;
  /** Rates an AI answer of the conversation shown; true once the service has it. */
  rate(messageId: string, rating: Rating, reason?: string): Promise<boolean>;
}

/**
 * The visitor's conversation: started lazily by the first message (or a request for a person),
 * remembered across reloads, followed through the events stream while it exists, with the status
 * line and notices kept up to date. Messages are shown once each (message-list.ts); answers stream
 * in from whichever route brings them first (answer-streams.ts).
 */
export function createConversation(deps: ConversationDeps): Conversation {
  const { api, saved, view, lifetime } = deps;
  const list = createMessageList(view);
  const answers = createAnswerStreams(view);
  let keys = saved.load();
  /** A verified visitor's session (`POST /chat/identity`): it lists and opens their conversations and starts new ones. */
  let session: { visitorToken: string; userId: string } | undefined;
  /** A closed conversation read from the list (it is not continued, so not `keys`). */
  let reading: string | undefined;
  /** The keys of the conversation shown, kept after it closes: its answers can still be rated. */
  let shown = keys;
  // A conversation verified as a user is theirs only: another user of this browser (or no one signed in) starts afresh.
  if (keys?.userId !== undefined && deps.pageUser() !== undefined && deps.pageUser() !== keys.userId) {
    saved.forget();
    keys = undefined;
  }
  /** The page's user is known only once a token is fetched: the remembered conversation waits until then. */
  let userUnchecked = keys?.userId !== undefined && deps.pageUser() === undefined;
  let status: ConversationStatus = 'ai';
  let agentName: string | undefined;
  let notice: Notice | undefined;
  let prepared = false;
  let starting: Promise<ConversationKeys> | undefined;
  let following: Lifetime | undefined;
  let sending = false;
  let handingOff = false;
  /** The message that failed last: sending the same text again reuses its id, so it is taken in once. */
  let failed: { text: string; messageId: string } | undefined;

  // A remembered conversation is followed at once, so an agent's reply shows (as unread) even before the window opens.
  if (keys && !userUnchecked) follow(keys);

  async function prepare(): Promise<void> {
    if (prepared) return;
    prepared = true;
    let token: string | undefined;
    // Told by the configuration: a visitor the page does not sign in cannot start, so they learn it before they try.
    if (deps.pageUser() === null && deps.identityRequired()) report(identityRequired(), 'identityNeeded');
    if (keys && userUnchecked) {
      userUnchecked = false;
      token = await deps.identityToken().catch(() => undefined);
      if (token !== undefined && userOfToken(token) === keys.userId) follow(keys);
      else forget();
    }
    if (deps.pageUser() !== null) await identify(token);
    const current = keys;
    if (!current) return showGreeting();
    await load(current, true);
  }

  /** Shows a conversation's history; `mayRestart`: one gone or over is forgotten and greeted as a new one. */
  async function load(current: ConversationKeys, mayRestart: boolean): Promise<void> {
    try {
      const history = await api.history(current);
      if (keys !== current && reading !== current.conversationId) return mayRestart ? showGreeting() : undefined;
      if (history.status === 'closed' && mayRestart) return restart();
      const messages = history.messages.filter(isChatMessage);
      for (const { replyTo } of messages) if (replyTo) answers.complete(replyTo);
      list.merge(messages);
      setStatus(history.status);
    } catch (error) {
      if (lifetime.signal.aborted) return;
      if (mayRestart) {
        if (error instanceof ApiError && (error.status === 403 || error.status === 404)) return restart();
        prepared = false;
      }
      report(error, 'loadFailed');
    }
  }

  /**
   * A verified visitor's session, which lists their conversations; with no conversation on this
   * device, they continue their newest open one from another device (its history shows as for a
   * remembered one).
   */
  async function identify(given: string | undefined): Promise<void> {
    try {
      const token = given ?? (await deps.identityToken());
      if (!token) return;
      const found = await api.identify(token);
      session = { visitorToken: found.visitorToken, userId: found.userId };
      view.setHistoryAvailable(true);
      const open = found.conversations.find((conversation) => conversation.status !== 'closed');
      if (!open || keys) return;
      keys = { conversationId: open.conversationId, visitorToken: found.visitorToken, userId: found.userId };
      saved.save(keys);
      follow(keys);
    } catch (error) {
      if (!lifetime.signal.aborted) report(error, identityNotice(error) ?? 'loadFailed');
    }
  }

  function send(raw: string): boolean {
    const text = raw.trim();
    if (!text || sending) return false;
    sending = true;
    view.setSending(true);
    setNotice(undefined);
    const retry = failed?.text === text ? failed : undefined;
    failed = undefined;
    const messageId = retry?.messageId ?? newMessageId();
    if (retry) view.markFailed(messageId, false);
    else {
      const message: ChatMessage = {
        id: messageId,
        author: 'visitor',
        text,
        createdAt: new Date().toISOString(),
        aiGenerated: false,
      };
      list.add(message);
      deps.onSent(message);
    }
    void post(text, messageId).finally(() => {
      sending = false;
      view.setSending(false);
    });
    return true;
  }

  async function post(text: string, messageId: string): Promise<void> {
    let accepted = false;
    try {
      const current = await conversationKeys();
      await api.send(current, { text, messageId }, (event) => {
        accepted ||= event.event === 'accepted';
        onEvent(event, true);
      });
    } catch (error) {
      // Once accepted, the message is kept and its answer also comes through the events stream.
      if (lifetime.signal.aborted || accepted) return;
      failed = { text, messageId };
      view.markFailed(messageId, true);
      view.restoreDraft(text);
      const code = error instanceof ApiError ? error.status : 0;
      if (code === 409) setStatus('closed');
      if (code === 403 || code === 404) forget();
      if (identityNotice(error)) forgetSession();
      report(error, identityNotice(error) ?? (code === 429 ? 'tooFast' : code === 409 ? 'ended' : 'sendFailed'));
    } finally {
      answers.release(messageId);
    }
  }

  async function handoff(): Promise<void> {
    if (handingOff) return;
    handingOff = true;
    setNotice(undefined);
    try {
      setStatus((await api.handoff(await conversationKeys())).status);
    } catch (error) {
      if (lifetime.signal.aborted) return;
      const closed = error instanceof ApiError && error.status === 409;
      if (closed) setStatus('closed');
      report(error, closed ? 'ended' : 'handoffFailed');
    } finally {
      handingOff = false;
    }
  }

  function rerender(): void {
    list.showAll(keys ? undefined : deps.greeting());
  }

  /** The conversation's keys, starting it first when there is none (once, however many ask at the same time). */
  function conversationKeys(): Promise<ConversationKeys> {
    if (keys) return Promise.resolve(keys);
    let userId: string | undefined;
    starting ??= (session ? Promise.resolve(undefined) : deps.identityToken())
      .then((identityToken) => {
        if (!identityToken && !session && deps.identityRequired()) throw identityRequired();
        userId = session?.userId ?? (identityToken ? userOfToken(identityToken) : undefined);
        const input = { ...deps.startInput(), ...(identityToken ? { identityToken } : {}) };
        return api.start(input, session?.visitorToken);
      })
      .then((started) => {
        const current = {
          conversationId: started.conversationId,
          visitorToken: started.visitorToken,
          ...(userId ? { userId } : {}),
        };
        keys = current;
        saved.save(current);
        setStatus(started.status);
        for (const message of started.messages.filter(isChatMessage)) list.add(message);
        follow(current);
        return current;
      })
      .finally(() => (starting = undefined));
    return starting;
  }

  /** Follows the conversation's events while it exists (a new conversation replaces the old one's stream). */
  function follow(current: ConversationKeys): void {
    shown = current;
    following?.end();
    following = lifetime.child();
    followConversation({
      api,
      keys: current,
      lifetime: following,
      onEvent: (event) => onEvent(event, false),
      onGone: () => keys === current && forget(),
    });
  }

  function onEvent({ event, data }: ServerEvent, viaPost: boolean): void {
    const replyTo = typeof data.replyTo === 'string' ? data.replyTo : undefined;
    switch (event) {
      case 'accepted':
        // The answer's bubble appears at once (as "typing") when the AI is the one to answer.
        if (status === 'ai' && typeof data.messageId === 'string') answers.write(data.messageId, true, '');
        return;
      case 'token':
        if (replyTo) answers.write(replyTo, viaPost, typeof data.delta === 'string' ? data.delta : '');
        return;
      case 'reset':
        if (replyTo) answers.write(replyTo, viaPost, null);
        return;
      case 'done':
        finish(replyTo, isChatMessage(data.message) ? data.message : undefined);
        return setStatus(data.status);
      case 'message':
        return receive(data.message);
      case 'status':
        if (data.status === 'closed' && data.closedBy === 'agent' && keys) askSatisfaction(keys);
        return setStatus(data.status, data.agentName);
      case 'error':
        if (!viaPost) return;
        if (data.error?.code === 'reply_delayed') return setNotice('replyDelayed');
        return report(new ApiError(200, String(data.error?.code), String(data.error?.message)), 'sendFailed');
    }
  }

  /** An answer is complete: its final message (authoritative over the streamed text), or none when a person answers. */
  function finish(replyTo: string | undefined, message: ChatMessage | undefined): void {
    if (replyTo) answers.complete(replyTo);
    if (!message || !list.add(message, replyTo)) return view.endStream(replyTo);
    if (notice === 'replyDelayed') setNotice(undefined);
    deps.onReceived(message);
  }

  /** A message from the events stream: anyone's, the visitor's own included (another tab may have sent it). */
  function receive(message: unknown): void {
    if (!isChatMessage(message) || list.has(message.id)) return;
    if (message.author === 'ai' && message.replyTo) return finish(message.replyTo, message);
    if (list.add(message) && message.author !== 'visitor') deps.onReceived(message);
  }

  function setStatus(next: unknown, name?: unknown): void {
    if (!isStatus(next)) return;
    agentName = typeof name === 'string' && name ? name : next === status ? agentName : undefined;
    status = next;
    view.setStatus(status, agentName);
    // A closed conversation takes no more messages: the next one the visitor sends starts a new conversation.
    if (status === 'closed') forget();
  }

  function setNotice(next: Notice | undefined): void {
    notice = next;
    view.setNotice(next);
  }

  function report(error: unknown, next: Notice): void {
    setNotice(next);
    const { code, message } = error instanceof ApiError ? error : { code: 'unexpected', message: String(error) };
    deps.onError(code, message);
  }

  /** What the service would answer a visitor the page does not sign in, while the operator requires it: said without asking. */
  function identityRequired(): ApiError {
    return new ApiError(403, 'identity_required', 'Sign-in required');
  }

  /** A refused identity: the page must sign the visitor in again (a fresh token). */
  function identityNotice(error: unknown): Notice | undefined {
    if (!(error instanceof ApiError) || !error.code.startsWith('identity_')) return undefined;
    return error.code === 'identity_required' ? 'identityNeeded' : 'identityRefused';
  }

  async function earlier(): Promise<EarlierConversation[] | undefined> {
    try {
      return session && (await api.conversations(session.visitorToken)).conversations;
    } catch (error) {
      if (lifetime.signal.aborted) return undefined;
      if (identityNotice(error)) forgetSession();
      report(error, identityNotice(error) ?? 'loadFailed');
      return undefined;
    }
  }

  async function rate(messageId: string, rating: Rating, reason?: string): Promise<boolean> {
    return shown !== undefined && attempt(api.rate(shown, messageId, rating, reason));
  }

  /** Asks once for the score of a conversation an agent just closed (its keys are forgotten right after). */
  function askSatisfaction(closed: ConversationKeys): void {
    view.askSatisfaction((score) => attempt(api.satisfaction(closed, score)));
  }

  /** A rating sent: true once taken; a refusal shows in the status line. */
  async function attempt(request: Promise<unknown>): Promise<boolean> {
    try {
      await request;
      setNotice(undefined);
      return true;
    } catch (error) {
      if (!lifetime.signal.aborted)
        report(error, error instanceof ApiError && error.status === 429 ? 'tooFast' : 'feedbackFailed');
      return false;
    }
  }

  async function openEarlier({ conversationId, status: listed }: EarlierConversation): Promise<void> {
    if (!session) return;
    const current = { conversationId, visitorToken: session.visitorToken, userId: session.userId };
    clear(listed === 'closed');
    shown = current;
    if (listed === 'closed') reading = conversationId;
    else {
      keys = current;
      saved.save(current);
      follow(current);
    }
    await load(current, false);
  }

  function startNew(): void {
    clear(false);
    showGreeting();
    setStatus('ai');
  }

  /** Leaves the conversation shown (this device forgets it) for another one. */
  function clear(readOnly: boolean): void {
    forget();
    shown = undefined;
    reading = undefined;
    failed = undefined;
    setNotice(undefined);
    list.clear();
    view.setReadOnly(readOnly);
  }

  function forgetSession(): void {
    session = undefined;
    view.setHistoryAvailable(false);
  }

  function showGreeting(): void {
    list.add(deps.greeting());
  }

  /** The remembered conversation is gone or over: forget it and greet as for a new one. */
  function restart(): void {
    forget();
    showGreeting();
  }

  function forget(): void {
    saved.forget();
    keys = undefined;
    following?.end();
    following = undefined;
  }

  return {
    prepare,
    send,
    handoff,
    rerender,
    earlier,
    current: () => keys?.conversationId ?? reading,
    openEarlier,
    startNew,
    rate,
  };
}
