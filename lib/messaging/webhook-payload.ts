/**
 * Reads one webhook delivery of the WhatsApp Cloud API (field `messages`) into the few events the
 * channel acts on. Pure: no I/O, no clock. The signature must have been checked on the raw bytes
 * before the body was parsed and handed here.
 *
 * A delivery is read as far as it can be: a message of an odd shape is skipped and described in
 * `problems` (for the log; problems name ids, never what the customer wrote), so that one bad
 * message does not make the platform re-deliver the good ones beside it for a week.
 */
import { placeholderFor } from './non-text-messages.js';

export type WebhookEvent = InboundMessageEvent | ReactionEvent | MessageStatusEvent | PlatformErrorEvent;

/** A customer message, as the text the AI and the agent see. */
export interface InboundMessageEvent {
  kind: 'message';
  /** The business number it was sent to; with the webhook path, it picks the connection. */
  phoneNumberId: string;
  /** The platform's id (`wamid.…`): the deduplication key, and what `markRead` and replies refer to. */
  messageId: string;
  /**
   * Whom to answer: the customer's `wa_id` (phone digits, no `+`). For customers who use a WhatsApp
   * username it may be absent; then this is their business-scoped user id (`US.1349…`) instead.
   */
  from: string;
  /** The business-scoped user id (`user_id` / `from_user_id`) when the platform sends one. */
  userId?: string;
  /** The customer's WhatsApp profile name. */
  customerName?: string;
  /** When the customer sent it (ISO 8601): the 24-hour service window runs from the latest one. */
  timestamp: string;
  /** The platform's message type (`text`, `interactive`, `button`, `image`, …, `unsupported`). */
  type: string;
  /** The text itself, a tapped button's or list row's title, or a placeholder such as `[Image] caption`. */
  text: string;
  /** The id of the button or list row the customer tapped (a template button's payload). */
  choiceId?: string;
  /** The id of the message this one replies to (for a tapped button: the message that carried it). */
  replyTo?: string;
}

/**
 * A customer reacted to a message (or took a reaction back: `emoji` absent). Never answered, but
 * it counts as the customer writing: it reopens the 24-hour window.
 */
export interface ReactionEvent {
  kind: 'reaction';
  phoneNumberId: string;
  messageId: string;
  from: string;
  userId?: string;
  timestamp: string;
  /** The message reacted to. */
  reactedTo: string;
  emoji?: string;
}

export type DeliveryStatus = 'sent' | 'delivered' | 'read' | 'failed';

/** What became of a message we sent. They arrive late, duplicated and out of order: see `laterStatus`. */
export interface MessageStatusEvent {
  kind: 'status';
  phoneNumberId: string;
  /** The id the send answered with (`messages[0].id`). */
  messageId: string;
  status: DeliveryStatus;
  timestamp: string;
  recipientId?: string;
  /** On `failed`: why (131047 = the 24-hour window had closed, 131026 = undeliverable, …). */
  error?: PlatformError;
}

/** A problem the platform reports outside any one message (for example throughput, 130429); log it. */
export interface PlatformErrorEvent extends PlatformError {
  kind: 'error';
  phoneNumberId: string;
}

export interface PlatformError {
  /** The Graph error code; `kindOfErrorCode` in `graph-errors.ts` says what it means for us. */
  code: number | null;
  title: string;
  message: string;
  details?: string;
}

/** The body is not a WhatsApp webhook delivery at all. Answer it with 200 anyway if it was well signed. */
export class MalformedDeliveryError extends Error {
  override readonly name = 'MalformedDeliveryError';
}

/**
 * How far a message got. `failed` ranks above `delivered`, so that an asynchronous failure replaces
 * the `sent` of a send that was answered 200 (the doc: "treat it as the real outcome"); `read` ranks
 * above `failed`, because a message the customer opened did reach them. Taking the higher of two
 * ranks gives the same answer whatever order the statuses arrive in, which they do not keep.
 */
export const statusRank: Readonly<Record<DeliveryStatus, number>> = { sent: 1, delivered: 2, failed: 3, read: 4 };

/** The status to keep when `incoming` arrives for a message at `current`: never backwards. */
export function laterStatus(current: DeliveryStatus | undefined, incoming: DeliveryStatus): DeliveryStatus {
  return current === undefined || statusRank[incoming] > statusRank[current] ? incoming : current;
}

/** Message types that are not something to answer: shop orders, number changes, a chat's first opening. */
const ignoredTypes = new Set(['order', 'system', 'request_welcome']);

/** Every event of a delivery, in order: all entries, all changes of field `messages`. */
export function readWebhookDelivery(body: unknown): { events: WebhookEvent[]; problems: string[] } {
  if (!isRecord(body) || body.object !== 'whatsapp_business_account' || !Array.isArray(body.entry)) {
    throw new MalformedDeliveryError('The body is not a WhatsApp Business Account webhook delivery.');
  }
  const events: WebhookEvent[] = [];
  const problems: string[] = [];
  for (const entry of body.entry) {
    const changes = isRecord(entry) && Array.isArray(entry.changes) ? entry.changes : [];
    if (changes.length === 0) problems.push('an entry without changes');
    for (const change of changes) {
      if (!isRecord(change) || change.field !== 'messages') continue;
      readChange(change.value, events, problems);
    }
  }
  return { events, problems };
}

function readChange(value: unknown, events: WebhookEvent[], problems: string[]): void {
  const phoneNumberId = isRecord(value) && isRecord(value.metadata) ? text(value.metadata.phone_number_id) : undefined;
  if (!isRecord(value) || phoneNumberId === undefined) {
    problems.push('a change without metadata.phone_number_id');
    return;
  }
  const contacts = list(value.contacts).filter(isRecord);
  for (const message of list(value.messages)) {
    const read = readMessage(message, phoneNumberId, contacts);
    if (typeof read === 'string') problems.push(read);
    else if (read) events.push(read);
  }
  for (const status of list(value.statuses)) {
    const read = readStatus(status, phoneNumberId);
    if (typeof read === 'string') problems.push(read);
    else events.push(read);
  }
  for (const error of list(value.errors)) events.push({ kind: 'error', phoneNumberId, ...readError(error) });
}

/** The event for one message, undefined for a type we ignore, or a problem string. */
function readMessage(
  message: unknown,
  phoneNumberId: string,
  contacts: Record<string, unknown>[],
): InboundMessageEvent | ReactionEvent | string | undefined {
  if (!isRecord(message)) return 'a message that is not an object';
  const messageId = text(message.id);
  if (messageId === undefined) return 'a message without id';
  const type = text(message.type) ?? 'unknown';
  if (ignoredTypes.has(type)) return undefined;
  const timestamp = isoTime(message.timestamp);
  if (timestamp === undefined) return `message ${messageId}: no readable timestamp`;

  const waId = text(message.from);
  const fromUserId = text(message.from_user_id);
  const contact = contacts.find((candidate) =>
    waId !== undefined ? candidate.wa_id === waId : fromUserId !== undefined && candidate.user_id === fromUserId,
  );
  const userId = fromUserId ?? text(contact?.user_id);
  const from = waId ?? userId;
  if (from === undefined) return `message ${messageId}: no sender (neither from nor from_user_id)`;
  const sender = { phoneNumberId, messageId, from, ...optional({ userId }), timestamp };

  if (type === 'reaction') {
    const reaction = isRecord(message.reaction) ? message.reaction : {};
    const reactedTo = text(reaction.message_id);
    if (reactedTo === undefined) return `message ${messageId}: a reaction without message_id`;
    return { kind: 'reaction', ...sender, reactedTo, ...optional({ emoji: text(reaction.emoji) }) };
  }

  const content = readContent(type, message);
  if (content === undefined) return `message ${messageId}: a ${type} message without its ${type} content`;
  const customerName = isRecord(contact?.profile) ? text(contact.profile.name) : undefined;
  const replyTo = isRecord(message.context) ? text(message.context.id) : undefined;
  return { kind: 'message', ...sender, ...optional({ customerName }), type, ...content, ...optional({ replyTo }) };
}

/** What the customer said: typed text, the title of what they tapped, or a placeholder. */
function readContent(type: string, message: Record<string, unknown>): { text: string; choiceId?: string } | undefined {
  const content = message[type];
  if (type === 'text') {
    const body = isRecord(content) && typeof content.body === 'string' ? content.body : undefined;
    return body === undefined || body.trim() === '' ? undefined : { text: body };
  }
  if (type === 'interactive') {
    if (!isRecord(content)) return undefined;
    const reply = content.button_reply ?? content.list_reply;
    if (!isRecord(reply)) return { text: placeholderFor('unsupported', undefined) }; // Flows (nfm_reply) and newer kinds
    return choice(text(reply.id), text(reply.title));
  }
  if (type === 'button') {
    return isRecord(content) ? choice(text(content.payload), text(content.text)) : undefined;
  }
  return { text: placeholderFor(type, content) };
}

function choice(id: string | undefined, title: string | undefined): { text: string; choiceId?: string } | undefined {
  const shown = title ?? id;
  return shown === undefined ? undefined : { text: shown, ...optional({ choiceId: id }) };
}

function readStatus(status: unknown, phoneNumberId: string): MessageStatusEvent | string {
  if (!isRecord(status)) return 'a status that is not an object';
  const messageId = text(status.id);
  if (messageId === undefined) return 'a status without id';
  const value = status.status;
  if (value !== 'sent' && value !== 'delivered' && value !== 'read' && value !== 'failed') {
    return `status of ${messageId}: ${String(value)} is not one we track`;
  }
  const timestamp = isoTime(status.timestamp);
  if (timestamp === undefined) return `status of ${messageId}: no readable timestamp`;
  const recipientId = text(status.recipient_id) ?? text(status.recipient_user_id);
  const error = list(status.errors)[0];
  return {
    kind: 'status',
    phoneNumberId,
    messageId,
    status: value,
    timestamp,
    ...optional({ recipientId }),
    ...(error === undefined ? {} : { error: readError(error) }),
  };
}

function readError(error: unknown): PlatformError {
  const fields = isRecord(error) ? error : {};
  const code = typeof fields.code === 'string' ? Number(fields.code) : fields.code;
  const title = text(fields.title) ?? text(fields.message) ?? 'Unknown error';
  const details = isRecord(fields.error_data) ? text(fields.error_data.details) : undefined;
  return {
    code: typeof code === 'number' && Number.isInteger(code) ? code : null,
    title,
    message: text(fields.message) ?? title,
    ...optional({ details }),
  };
}

/**
 * Unix seconds (a string on the wire; a number accepted too) as ISO 8601 with milliseconds; undefined
 * for a time a Date cannot hold (beyond the year 275760), which makes the event unreadable, not the
 * delivery an error.
 */
function isoTime(value: unknown): string | undefined {
  const seconds = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds <= 0) return undefined;
  const time = new Date(seconds * 1000);
  return Number.isNaN(time.getTime()) ? undefined : time.toISOString();
}

/** The fields whose value is defined, so that absent ones stay absent rather than `undefined`. */
function optional<T extends Record<string, unknown>>(fields: T): Partial<T> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Partial<T>;
}

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
