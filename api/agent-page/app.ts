/**
 * The inbox page's script, served as `/agent/app.js` (a module without dependencies but its siblings
 * `insights.ts`, the Insights view, and `sources.ts` and `teams.ts`, the Sources and Teams views, fetched only once the API
 * says the user is an admin; the API strips their types with esbuild when it first serves them,
 * nothing is bundled). Everything from the API is
 * put on the page with `textContent`: transcripts are written by customers and must never become
 * markup. The two event streams are read with `fetch`, so the token travels in the Authorization
 * header rather than in URLs; a dropped stream reconnects after 3 s.
 */

import { createInsightsView } from './insights.js';
import { createNotesPanel, type AgentNotification, type NoteLike, type NotificationList } from './notes.js';
import { createSearchPanel } from './search.js';
import { createCannedReplies } from './canned-replies.js';
import { createAssignment } from './assignment.js';
import { slaBadge, type SlaState } from './sla.js';
import type { SourcesView } from './sources.js';
import type { TeamsView } from './teams.js';

// The API's shapes as this page reads them (lib/conversations/inbox.ts and the conversation events).
type Channel = 'widget' | 'messaging';
type Status = 'ai' | 'waiting_for_agent' | 'agent' | 'closed';
type Author = 'visitor' | 'ai' | 'agent' | 'system';

interface Contact {
  userId?: string;
  email?: string;
  name?: string;
  /** Vouched for by the site's identity token. */
  verified?: boolean;
  /** Messaging: the customer's number (E.164). */
  phone?: string;
}

interface Conversation {
  conversationId: string;
  channel: Channel;
  status: Status;
  contact?: Contact;
  agentName: string | null;
  createdAt: string;
  updatedAt: string;
  windowOpenUntil?: string | null;
  deliveryProblem?: Problem | null;
  sla?: SlaState | null;
}

/** Why a message did not reach the customer: our code, and the platform's own number and title when it gave them. */
interface Problem {
  code: string;
  message: string;
  at: string;
  platformCode?: number;
  platformTitle?: string;
}

interface Message extends NoteLike {
  id: string;
  author: Author;
  text: string;
  createdAt: string;
  agent?: { name: string };
  /** Messaging, messages to the customer: how far it got. */
  delivery?: Delivery;
  /** AI answers the customer rated: the latest rating. */
  feedback?: { rating: 'up' | 'down'; reason?: string | null };
}

type DeliveryStatus = 'pending' | 'sent' | 'delivered' | 'read' | 'failed';

interface Delivery {
  status: DeliveryStatus;
  error?: Problem;
}

/** The events of `/agent/events`, by name. */
interface InboxEvents {
  inbox: { conversations: Conversation[] };
  notifications: NotificationList;
  notification: AgentNotification;
  assigned: { conversationId: string };
}

/** The events of `/agent/conversations/{id}/events`, by name: the conversation first, then changes. */
interface ConversationEvents {
  conversation: Conversation & { messages: Message[] };
  message: { message: Message };
  status: { status: Status; agentName: string | null };
  delivery: { messageId: string; delivery: Delivery };
  note: { message: Message };
}

/** One event of a stream whose events are `Events`, narrowed by its name. */
type EventOf<Events> = { [Name in keyof Events]: { name: Name; data: Events[Name] } }[keyof Events];

interface Stream {
  stop(): void;
}

/** The page's elements by id (index.html), so that a wrong id or element type fails the type-check. */
interface Elements {
  'sign-in': HTMLFormElement;
  token: HTMLInputElement;
  'signed-in': HTMLDivElement;
  live: HTMLSpanElement;
  'sign-out': HTMLButtonElement;
  error: HTMLParagraphElement;
  main: HTMLElement;
  empty: HTMLParagraphElement;
  conversations: HTMLUListElement;
  'empty-ai': HTMLParagraphElement;
  'with-ai': HTMLUListElement;
  placeholder: HTMLElement;
  detail: HTMLElement;
  contact: HTMLHeadingElement;
  badges: HTMLDivElement;
  'take-over': HTMLButtonElement;
  'hand-back': HTMLButtonElement;
  close: HTMLButtonElement;
  window: HTMLParagraphElement;
  problem: HTMLParagraphElement;
  transcript: HTMLOListElement;
  reply: HTMLFormElement;
  'reply-text': HTMLTextAreaElement;
  send: HTMLButtonElement;
  'show-inbox': HTMLButtonElement;
  'show-insights': HTMLButtonElement;
  insights: HTMLElement;
  'show-sources': HTMLButtonElement;
  sources: HTMLElement;
  'show-teams': HTMLButtonElement;
  teams: HTMLElement;
}

const tokenKey = 'agentInboxToken';
const $ = <Id extends keyof Elements>(id: Id): Elements[Id] => {
  const node = document.getElementById(id);
  if (!node) throw new Error(`The page has no #${id}.`);
  return node as Elements[Id];
};
const labels: Record<'channel' | 'status' | 'author', Record<string, string>> = {
  channel: { widget: 'Widget', messaging: 'WhatsApp' },
  status: { ai: 'AI', waiting_for_agent: 'Waiting', agent: 'With agent', closed: 'Closed' },
  author: { visitor: 'Customer', ai: 'AI', system: 'Notice' },
};

const state: {
  token: string | null;
  conversations: Conversation[];
  selected: string | null;
  conversation: Conversation | null;
  messages: Message[];
  streams: { inbox?: Stream; conversation?: Stream };
} = { token: sessionStorage.getItem(tokenKey), conversations: [], selected: null, conversation: null, messages: [], streams: {} };

function el<Tag extends keyof HTMLElementTagNameMap>(
  tag: Tag,
  className?: string,
  text?: string | null,
): HTMLElementTagNameMap[Tag] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

function showError(message: string) {
  $('error').textContent = message;
  $('error').hidden = !message;
}

/** The `error.message` of an API error body, if `json` is one. */
function apiErrorMessage(json: unknown): string | undefined {
  const message = (json as { error?: { message?: unknown } } | null)?.error?.message;
  return typeof message === 'string' ? message : undefined;
}

interface ErrorDetail {
  path?: string;
  message: string;
}

/** A refusal of the API (`{error: {code, message, details?}}`, api/errors.ts): its message, and its details for forms. */
class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly details: ErrorDetail[],
  ) {
    super(message);
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The field-by-field problems of an API refusal, the ones with a message. */
function detailsOf(error: unknown): ErrorDetail[] {
  if (!(error instanceof ApiError)) return [];
  return error.details.filter((detail) => typeof detail?.message === 'string');
}

/** Calls the API with the token; `body` is sent as JSON, or as it is when it is a FormData (a file upload). */
async function api<Result>(method: string, path: string, body?: unknown): Promise<Result> {
  const headers: Record<string, string> = { authorization: `Bearer ${state.token}` };
  const form = body instanceof FormData;
  if (body !== undefined && !form) headers['content-type'] = 'application/json';
  const response = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : form ? body : JSON.stringify(body),
  });
  const json: unknown = await response.json().catch(() => null);
  if (response.status === 401) signOut('The token was not accepted: sign in again.');
  if (!response.ok) {
    const details = (json as { error?: { details?: unknown } } | null)?.error?.details;
    throw new ApiError(
      apiErrorMessage(json) || `The request failed (${response.status}).`,
      response.status,
      Array.isArray(details) ? details : [],
    );
  }
  return json as Result;
}

/** A GET answered as a file (a CSV export), with the token. */
async function download(path: string): Promise<Blob> {
  const response = await fetch(path, { headers: { authorization: `Bearer ${state.token}` } });
  if (response.ok) return response.blob();
  const json: unknown = await response.json().catch(() => null);
  if (response.status === 401) signOut('The token was not accepted: sign in again.');
  throw new Error(apiErrorMessage(json) || `The download failed (${response.status}).`);
}

/** Reads a server-sent-events route with fetch; calls onEvent per event; reconnects until stopped. */
function follow<Events>(path: string, onEvent: (event: EventOf<Events>) => void): Stream {
  const controller = new AbortController();
  const run = async () => {
    while (!controller.signal.aborted) {
      try {
        const response = await fetch(path, {
          headers: { authorization: `Bearer ${state.token}`, accept: 'text/event-stream' },
          signal: controller.signal,
        });
        if (response.status === 401) return signOut('The token was not accepted: sign in again.');
        if (!response.ok) {
          const json: unknown = await response.json().catch(() => null);
          showError(apiErrorMessage(json) || `The event stream failed (${response.status}).`);
          if (response.status === 403 || response.status === 404) return;
        } else {
          setLive(true);
          if (response.body) await readEvents(response.body, onEvent);
        }
      } catch {
        if (controller.signal.aborted) return;
      }
      setLive(false);
      await new Promise((resolve) => setTimeout(resolve, 3000));
    }
  };
  void run();
  return { stop: () => controller.abort() };
}

/** Reads an event stream's body to its end, one blank-line-separated block per event. */
async function readEvents<Events>(body: NonNullable<Response['body']>, onEvent: (event: EventOf<Events>) => void) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += value;
    const blocks = buffer.split(/\r?\n\r?\n/);
    buffer = blocks.pop() ?? '';
    for (const block of blocks) dispatch(block, onEvent);
  }
}

function dispatch<Events>(block: string, onEvent: (event: EventOf<Events>) => void) {
  let name = 'message';
  const data: string[] = [];
  for (const line of block.split(/\r?\n/)) {
    if (line.startsWith('event:')) name = line.slice(6).trim();
    else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
  }
  // The server is trusted for what each event holds; a name the page does not know matches no handler.
  if (data.length) onEvent({ name, data: JSON.parse(data.join('\n')) } as EventOf<Events>);
}

function setLive(on: boolean) {
  $('live').textContent = on ? 'Live' : 'Reconnecting…';
  $('live').classList.toggle('on', on);
}

function contactName(contact: Contact | undefined): string {
  const name = contact?.name || contact?.email || contact?.userId;
  // A profile name is whatever the customer chose: their number says who they are.
  if (contact?.phone) return name ? `${name} · ${contact.phone}` : contact.phone;
  return name || 'Anonymous customer';
}

/** How far a message got, as ticks: a clock until the platform took it, ✓ sent, ✓✓ delivered, blue ✓✓ read, ✗ failed. */
const deliveryTicks: Record<DeliveryStatus, { mark: string; label: string }> = {
  pending: { mark: '🕓', label: 'Not sent yet' },
  sent: { mark: '✓', label: 'Sent' },
  delivered: { mark: '✓✓', label: 'Delivered' },
  read: { mark: '✓✓', label: 'Read' },
  failed: { mark: '✗', label: 'Not delivered' },
};

/** Statuses only move forward; `failed` is final unless the customer read it after all. */
const deliveryRank: Record<DeliveryStatus, number> = { pending: 0, sent: 1, delivered: 2, failed: 3, read: 4 };

function ticks(delivery: Delivery): HTMLSpanElement {
  const { mark, label } = deliveryTicks[delivery.status] ?? deliveryTicks.pending;
  const span = el('span', `ticks ${delivery.status}`, mark);
  span.title = delivery.error
    ? `${label}: ${problemSummary(delivery.error)}. ${delivery.error.message} [${delivery.error.code}]`
    : label;
  span.setAttribute('aria-label', span.title);
  return span;
}

/** Our code in words, the platform's own number and title beside it: "Recipient unavailable (WhatsApp 131026: Message undeliverable)". */
function problemSummary(problem: Problem): string {
  const ours = problem.code.replace(/_/g, ' ').replace(/^./, (first) => first.toUpperCase());
  if (problem.platformCode === undefined) return ours;
  return `${ours} (WhatsApp ${problem.platformCode}${problem.platformTitle ? `: ${problem.platformTitle}` : ''})`;
}

/** A `delivery` event: the message's ticks move on (never back: events may repeat what the first read showed). */
function moveDelivery(messageId: string, delivery: Delivery) {
  const message = state.messages.find((known) => known.id === messageId);
  if (!message || deliveryRank[delivery.status] <= deliveryRank[message.delivery?.status ?? 'pending']) return;
  message.delivery = delivery;
  // A failure is the conversation's latest delivery problem too: the notice above the transcript says why, live.
  if (delivery.status === 'failed' && delivery.error && state.conversation) {
    state.conversation.deliveryProblem = delivery.error;
    // The platform refused it for the closed window: closed, as the API now says, until the customer writes.
    const until = state.conversation.windowOpenUntil;
    if (delivery.error.code === 'window_closed' && until && Date.parse(until) > Date.parse(delivery.error.at))
      state.conversation.windowOpenUntil = delivery.error.at;
    renderDetail();
  } else renderTranscript();
}

function badges(conversation: Conversation): HTMLSpanElement {
  const box = el('span', 'badges');
  box.append(
    el('span', `badge ${conversation.channel}`, labels.channel[conversation.channel] || conversation.channel),
    el('span', `badge status-${conversation.status}`, labels.status[conversation.status] || conversation.status),
  );
  if (conversation.contact?.verified) box.append(el('span', 'badge verified', `Verified: ${conversation.contact.userId}`));
  if (conversation.deliveryProblem) box.append(el('span', 'badge problem', 'Not delivered'));
  const sla = slaBadge(el, conversation.sla);
  if (sla) box.append(sla);
  return box;
}

function time(iso: string | null | undefined): string {
  return iso ? new Date(iso).toLocaleString([], { dateStyle: 'short', timeStyle: 'short' }) : '';
}

/** Who needs a person first; then the conversations the AI is having, so a new one is seen at once. */
function renderList() {
  const needPerson = state.conversations.filter((c) => c.status === 'waiting_for_agent' || c.status === 'agent');
  const withAi = state.conversations.filter((c) => c.status === 'ai');
  renderGroup($('conversations'), needPerson);
  renderGroup($('with-ai'), withAi);
  $('empty').hidden = needPerson.length > 0;
  $('empty-ai').hidden = withAi.length > 0;
}

function renderGroup(list: HTMLUListElement, conversations: Conversation[]) {
  list.replaceChildren();
  for (const conversation of conversations) {
    const item = el('li');
    item.dataset.conversationId = conversation.conversationId;
    const button = el('button');
    button.type = 'button';
    button.setAttribute('aria-current', String(conversation.conversationId === state.selected));
    const row = el('span', 'row');
    row.append(el('span', 'who', contactName(conversation.contact)), el('span', 'when', time(conversation.updatedAt)));
    button.append(row, badges(conversation));
    if (conversation.agentName) button.append(el('span', 'when', `With ${conversation.agentName}`));
    assignment.decorateRow(button, conversation);
    button.addEventListener('click', () => select(conversation.conversationId));
    item.append(button);
    list.append(item);
  }
}

function renderDetail() {
  const conversation = state.conversation;
  $('detail').hidden = !conversation;
  $('placeholder').hidden = Boolean(conversation);
  if (!conversation) return;
  $('contact').textContent = contactName(conversation.contact);
  $('badges').replaceChildren(...badges(conversation).childNodes);
  assignment.show(conversation);
  if (conversation.agentName) $('badges').append(el('span', 'when', `With ${conversation.agentName}`));
  const status = conversation.status;
  $('take-over').disabled = status === 'closed';
  $('hand-back').disabled = status === 'closed' || status === 'ai';
  $('close').disabled = status === 'closed';
  $('send').disabled = status !== 'agent';
  $('reply-text').disabled = status !== 'agent';
  $('reply-text').placeholder =
    status === 'agent'
      ? 'Write a reply…'
      : status === 'closed'
        ? 'The conversation is closed.'
        : 'Take the conversation over to reply.';

  const windowNote = $('window');
  windowNote.hidden = conversation.channel !== 'messaging';
  if (conversation.channel === 'messaging') {
    const until = conversation.windowOpenUntil ? new Date(conversation.windowOpenUntil) : null;
    const open = until !== null && until.getTime() > Date.now();
    windowNote.className = open ? 'notice' : 'notice closed';
    windowNote.textContent = open
      ? `Reply window open until ${time(conversation.windowOpenUntil)} (24 hours after the customer last wrote).`
      : 'Reply window closed (the customer wrote more than 24 hours ago, or the platform refused a message for it): only an approved template may be sent.';
  }
  const problem = conversation.deliveryProblem;
  $('problem').hidden = !problem;
  if (problem)
    $('problem').textContent =
      (problem.code === 'window_closed' ? 'Handed to a person: the reply window has closed. ' : '') +
      `Last message not delivered (${time(problem.at)}): ${problemSummary(problem)}. ${problem.message} [${problem.code}]`;
  renderTranscript();
  renderExtras(conversation);
}

function renderTranscript() {
  const transcript = $('transcript');
  const atBottom = transcript.scrollHeight - transcript.scrollTop - transcript.clientHeight < 40;
  transcript.replaceChildren();
  for (const message of state.messages) {
    const item = el('li', `message ${message.author}`);
    item.dataset.messageId = message.id;
    const who = message.author === 'agent' ? message.agent?.name || 'Agent' : labels.author[message.author] || message.author;
    item.append(el('span', 'meta', `${who} · ${time(message.createdAt)}`), el('span', 'text', message.text));
    if (message.delivery) item.querySelector('.meta')!.append(' ', ticks(message.delivery));
    if (message.feedback) item.append(rating(message.feedback));
    notesPanel.decorate(item, message);
    assignment.decorate(item, message);
    transcript.append(item);
  }
  if (atBottom) transcript.scrollTop = transcript.scrollHeight;
}

/** How the customer rated an AI answer, with their reason. */
function rating({ rating, reason }: NonNullable<Message['feedback']>): HTMLSpanElement {
  const text = rating === 'up' ? 'Rated helpful' : `Rated not helpful${reason ? `: ${reason}` : ''}`;
  return el('span', `rating ${rating}`, text);
}

function addMessage(message: Message) {
  if (state.messages.some((known) => known.id === message.id)) return;
  state.messages.push(message);
  // A customer's message on the messaging channel opens the reply window again, for 24 hours.
  if (message.author === 'visitor' && state.conversation?.channel === 'messaging') {
    state.conversation.windowOpenUntil = new Date(Date.parse(message.createdAt) + 24 * 3600 * 1000).toISOString();
    renderDetail();
  } else renderTranscript();
}

function select(conversationId: string) {
  state.streams.conversation?.stop();
  state.selected = conversationId;
  state.conversation = null;
  state.messages = [];
  showError('');
  renderList();
  renderDetail();
  state.streams.conversation = follow<ConversationEvents>(
    `/agent/conversations/${encodeURIComponent(conversationId)}/events`,
    (event) => {
      if (state.selected !== conversationId) return;
      if (event.name === 'conversation') {
        const { messages, ...conversation } = event.data;
        state.conversation = conversation;
        state.messages = [...messages];
        renderDetail();
        $('transcript').scrollTop = $('transcript').scrollHeight;
      } else if (event.name === 'message' || event.name === 'note') {
        addMessage(event.data.message);
      } else if (event.name === 'delivery') {
        moveDelivery(event.data.messageId, event.data.delivery);
      } else if (event.name === 'status' && state.conversation) {
        state.conversation.status = event.data.status;
        state.conversation.agentName = event.data.agentName;
        renderDetail();
      }
    },
  );
}

async function act(action: 'take-over' | 'hand-back' | 'close') {
  const conversationId = state.selected;
  if (!conversationId) return;
  showError('');
  try {
    const result = await api<{ status?: Status }>('POST', `/agent/conversations/${encodeURIComponent(conversationId)}/${action}`);
    if (state.conversation && state.selected === conversationId && result.status) {
      state.conversation.status = result.status;
      renderDetail();
    }
  } catch (error) {
    showError(messageOf(error));
  }
}

async function sendReply(event: SubmitEvent) {
  event.preventDefault();
  const text = $('reply-text').value;
  if (!text.trim() || !state.selected) return;
  showError('');
  $('send').disabled = true;
  try {
    await api('POST', `/agent/conversations/${encodeURIComponent(state.selected)}/messages`, {
      text,
      messageId: crypto.randomUUID(),
    });
    $('reply-text').value = '';
  } catch (error) {
    showError(messageOf(error));
  } finally {
    renderDetail();
  }
}

// ---- Templates and files (messaging only) ------------------------------------------------------
// Built here rather than in index.html: below the reply box, a template picker with a field per
// parameter while the 24-hour window is closed, and a file form (image or document by URL) while it is open.

interface Template {
  name: string;
  language: string;
  category: string;
  body: string;
  bodyParameters: number;
}

const extras: { conversationId: string | null; templates: Template[]; box: HTMLDivElement | null } = {
  conversationId: null,
  templates: [],
  box: null,
};

function renderExtras(conversation: Conversation) {
  if (!extras.box) {
    extras.box = el('div', 'extras');
    $('reply').after(extras.box);
  }
  const box = extras.box;
  const until = conversation.windowOpenUntil ? new Date(conversation.windowOpenUntil).getTime() : 0;
  const mode =
    conversation.channel !== 'messaging' || conversation.status !== 'agent' ? 'none' : until > Date.now() ? 'file' : 'template';
  if (box.dataset.mode === mode && box.dataset.conversationId === conversation.conversationId) return;
  box.dataset.mode = mode;
  box.dataset.conversationId = conversation.conversationId;
  box.replaceChildren();
  if (mode === 'template') void showTemplatePicker(box, conversation.conversationId);
  if (mode === 'file') box.append(fileForm(conversation.conversationId));
}

async function showTemplatePicker(box: HTMLDivElement, conversationId: string) {
  const path = `/agent/conversations/${encodeURIComponent(conversationId)}`;
  if (extras.conversationId !== conversationId) {
    try {
      extras.templates = (await api<{ templates: Template[] }>('GET', `${path}/templates`)).templates;
      extras.conversationId = conversationId;
    } catch (error) {
      showError(messageOf(error));
      return;
    }
  }
  if (state.selected !== conversationId) return;
  if (extras.templates.length === 0) {
    box.append(el('p', 'notice', 'No approved templates are registered for this number (an admin registers them).'));
    return;
  }
  const form = el('form', 'reply template');
  const choice = el('select');
  choice.setAttribute('aria-label', 'Template');
  extras.templates.forEach((template, i) => {
    const option = el('option', undefined, `${template.name} (${template.language})`);
    option.value = String(i);
    choice.append(option);
  });
  const preview = el('p', 'notice');
  const fields = el('div', 'parameters');
  const send = el('button', undefined, 'Send template');
  send.type = 'submit';
  const show = () => {
    const template = extras.templates[Number(choice.value)]!;
    preview.textContent = template.body;
    fields.replaceChildren();
    for (let n = 1; n <= template.bodyParameters; n++) {
      const input = el('input');
      input.required = true;
      input.placeholder = `{{${n}}}`;
      input.setAttribute('aria-label', `Parameter ${n}`);
      fields.append(input);
    }
  };
  choice.addEventListener('change', show);
  show();
  form.append(choice, preview, fields, send);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const template = extras.templates[Number(choice.value)]!;
    const parameters = [...fields.querySelectorAll('input')].map((input) => input.value);
    void sendExtra(`${path}/template-messages`, { name: template.name, language: template.language, parameters }, form);
  });
  box.append(form);
}

function fileForm(conversationId: string): HTMLFormElement {
  const form = el('form', 'reply file');
  const type = el('select');
  type.setAttribute('aria-label', 'File type');
  for (const [value, label] of [
    ['image', 'Image (JPEG, PNG, 5 MB)'],
    ['document', 'Document (PDF, Office, 16 MB)'],
  ]) {
    const option = el('option', undefined, label);
    option.value = value!;
    type.append(option);
  }
  const url = el('input');
  url.type = 'url';
  url.required = true;
  url.placeholder = 'https://… address of the file';
  url.setAttribute('aria-label', 'File address');
  const caption = el('input');
  caption.placeholder = 'Caption (optional)';
  caption.maxLength = 1024;
  caption.setAttribute('aria-label', 'Caption');
  const send = el('button', undefined, 'Send file');
  send.type = 'submit';
  form.append(type, url, caption, send);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const body = { type: type.value, url: url.value, ...(caption.value.trim() ? { caption: caption.value } : {}) };
    void sendExtra(`/agent/conversations/${encodeURIComponent(conversationId)}/media-messages`, body, form);
  });
  return form;
}

async function sendExtra(path: string, body: Record<string, unknown>, form: HTMLFormElement) {
  showError('');
  const button = form.querySelector('button');
  if (button) button.disabled = true;
  try {
    await api('POST', path, { ...body, messageId: crypto.randomUUID() });
    form.reset();
    form.querySelector('select')?.dispatchEvent(new Event('change'));
  } catch (error) {
    showError(messageOf(error));
  } finally {
    if (button) button.disabled = false;
  }
}

const insights = createInsightsView({ api, download, el, showError, messageOf });
$('insights').append(insights.element);

/** Private notes: a composer below the reply box, and the notifications of mentions in the header (notes.ts). */
const notesPanel = createNotesPanel({
  api,
  el,
  showError,
  messageOf,
  time,
  selected: () => state.selected,
  open: (conversationId) => {
    showView('inbox');
    select(conversationId);
  },
  show: (message) => addMessage(message as Message),
});
$('detail').append(notesPanel.composer);
$('live').before(notesPanel.bell);

/** Conversation search at the head of the inbox list (search.ts): its results take the list's place until cleared. */
const listSection = $('conversations').closest('section')!;
const searchPanel = createSearchPanel({
  api,
  el,
  showError,
  messageOf,
  time,
  open: select,
  showList: (shown) => listSection.classList.toggle('searching', !shown),
});
listSection.prepend(searchPanel.form, searchPanel.results);

/** Canned replies (canned-replies.ts): `/` and a shortcut in the reply box, and their panel from the header. */
const cannedReplies = createCannedReplies({
  api,
  el,
  showError,
  messageOf,
  detailsOf,
  box: $('reply-text'),
  selected: () => state.selected,
});
$('reply').before(cannedReplies.suggestions);
$('live').before(cannedReplies.manageButton);
document.body.append(cannedReplies.panel);

/** Teams and assignment (assignment.ts): the list's filters, availability, the Assign control, the "assigned to you" notice. */
const assignment = createAssignment<Conversation>({
  api,
  el,
  showError,
  messageOf,
  time,
  showList: (conversations) => {
    state.conversations = conversations;
    renderList();
  },
  selected: () => state.selected,
  open: (conversationId) => {
    showView('inbox');
    select(conversationId);
  },
  show: (message) => addMessage(message as Message),
  redraw: renderDetail,
});
$('conversations').closest('section')!.querySelector('h2')!.before(assignment.filters);
$('live').before(assignment.availability);
$('error').before(assignment.notice);
$('badges').after(assignment.control);

/** The Sources view, its module fetched the first time it is opened (most who sign in are agents, who never need it). */
let sources: SourcesView | null = null;

/**
 * Opens the Sources view, for admins like Insights: an agent who opens it is told, in the API's words,
 * that it needs the admin role. Nothing is asked of the API before the view is opened (a 403 at every
 * sign-in would be an error in every agent's console). A sign-out meanwhile wins.
 */
async function openSources() {
  const token = state.token;
  try {
    if (!sources) {
      const { createSourcesView } = await import('./sources.js');
      if (state.token !== token) return;
      sources = createSourcesView({ api, el, showError, messageOf, detailsOf, time });
      $('sources').replaceChildren(sources.element);
    }
    await sources.open();
  } catch (error) {
    showError(messageOf(error));
  }
}

/** The Teams view (teams.ts), like Sources: its module fetched the first time it is opened, for admins. */
let teams: TeamsView | null = null;

async function openTeams() {
  const token = state.token;
  try {
    if (!teams) {
      const { createTeamsView } = await import('./teams.js');
      if (state.token !== token) return;
      teams = createTeamsView({ api, el, showError, messageOf, detailsOf, time });
      $('teams').replaceChildren(teams.element);
    }
    await teams.open();
  } catch (error) {
    showError(messageOf(error));
  }
}

type View = 'inbox' | 'insights' | 'sources' | 'teams';

/** The inbox, or the Insights, Sources or Teams view (for admins: the API refuses anyone else, and the view says so). */
function showView(view: View) {
  $('main').hidden = view !== 'inbox';
  $('insights').hidden = view !== 'insights';
  $('sources').hidden = view !== 'sources';
  $('teams').hidden = view !== 'teams';
  for (const [button, shows] of [
    ['show-inbox', 'inbox'],
    ['show-insights', 'insights'],
    ['show-sources', 'sources'],
    ['show-teams', 'teams'],
  ] as const)
    $(button).setAttribute('aria-pressed', String(view === shows));
  if (view === 'insights') void insights.open();
  if (view === 'sources') void openSources();
  else sources?.hide();
  if (view === 'teams') void openTeams();
}

function start() {
  $('sign-in').hidden = true;
  $('signed-in').hidden = false;
  showView('inbox');
  renderDetail();
  assignment.start();
  state.streams.inbox = follow<InboxEvents>('/agent/events', (event) => {
    if (event.name === 'notifications') notesPanel.showNotifications(event.data);
    if (event.name === 'notification') notesPanel.notify(event.data);
    if (event.name === 'assigned') assignment.assigned(event.data.conversationId);
    if (event.name !== 'inbox') return;
    assignment.inbox(event.data.conversations);
  });
}

function signOut(message = '') {
  sessionStorage.removeItem(tokenKey);
  state.token = null;
  for (const stream of Object.values(state.streams)) stream?.stop();
  state.streams = {};
  state.selected = null;
  state.conversation = null;
  state.conversations = [];
  notesPanel.reset();
  searchPanel.reset();
  cannedReplies.reset();
  assignment.reset();
  $('sign-in').hidden = false;
  $('signed-in').hidden = true;
  $('main').hidden = true;
  $('insights').hidden = true;
  sources?.hide();
  sources = null;
  $('sources').hidden = true;
  $('sources').replaceChildren();
  teams = null;
  $('teams').hidden = true;
  $('teams').replaceChildren();
  showError(message);
}

$('sign-in').addEventListener('submit', (event) => {
  event.preventDefault();
  state.token = $('token').value.trim();
  if (!state.token) return;
  sessionStorage.setItem(tokenKey, state.token);
  $('token').value = '';
  showError('');
  start();
});
$('sign-out').addEventListener('click', () => signOut(''));
$('show-inbox').addEventListener('click', () => showView('inbox'));
$('show-insights').addEventListener('click', () => showView('insights'));
$('show-sources').addEventListener('click', () => showView('sources'));
$('show-teams').addEventListener('click', () => showView('teams'));
$('take-over').addEventListener('click', () => act('take-over'));
$('hand-back').addEventListener('click', () => act('hand-back'));
$('close').addEventListener('click', () => act('close'));
$('reply').addEventListener('submit', sendReply);
$('reply-text').addEventListener('keydown', (event) => {
  if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) $('reply').requestSubmit();
});

if (state.token) start();
else signOut('');
