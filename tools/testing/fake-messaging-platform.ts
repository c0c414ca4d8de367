/**
 * A stand-in for the WhatsApp Cloud API on 127.0.0.1, for tests that need real HTTP both ways.
 *
 * Graph side: `POST /<version>/<phone-number-id>/messages` checks the Bearer token, the version,
 * the number id and the payload as the platform does, and answers with the platform's bodies:
 * a fresh `wamid.` for a message, `{ success: true }` for mark-as-read (only of a message a customer
 * sent, `reads` records them), and Graph errors for everything else (190 wrong token, 131009 invalid payload, 131026 unreachable customer, and any
 * failure a test scripts with `failNext`). Point `GRAPH_API_BASE_URL` at `url`.
 *
 * Idempotency: the real Cloud API documents no idempotency key (docs/messaging.md); this fake
 * honours the `Idempotency-Key` header our client sends as an idempotent API would: a key it has
 * taken answers the first answer's message id again, and the customer does not get the message a
 * second time (`sent` is the customer's inbox). `loseAnswers` takes a send and never answers it,
 * as when the answer is lost on the way back; `holdNext` keeps a send waiting until released.
 *
 * Webhook side: `deliver` POSTs a delivery to our callback the way the platform does: compact
 * JSON with non-ASCII written as `\uXXXX` escapes, signed over those exact bytes. The builders
 * make realistic deliveries out of the samples in `messaging-samples/`.
 *
 * Templates, the 24-hour window as the platform keeps it, and the media endpoint: `fake-platform-extras.ts`.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { idempotencyKeyHeader } from '#messaging/graph-client.js';
import { validateOutboundPayload } from '#messaging/outbound-message.js';
import { signBody } from '#messaging/webhook-signature.js';
import { createFakeExtras, type FakeTemplate, type UploadedMedia } from './fake-platform-extras.js';
import { readBody, startAnsweringFake } from './http-fake.js';

export { idempotencyKeyHeader };

/** The token accepted unless `accessTokens` says otherwise. */
export const fakeAccessToken = 'EAAFakeSystemUserToken0123456789';

/** The samples' business: the WhatsApp Business Account and the number's id and digits. */
export const sampleBusiness = {
  businessAccountId: '102938475610293',
  phoneNumberId: '109283746501928',
  displayPhoneNumber: '15550100123',
} as const;

/** A Graph error a test scripts: the HTTP status and the body's code, message and details. */
export interface ScriptedGraphError {
  status: number;
  code: number;
  message: string;
  details?: string;
  subcode?: number;
}

/** The platform's answers to the failures tests script most, worded as the platform words them. */
export const graphErrors = {
  throughput: {
    status: 400,
    code: 130429,
    message: '(#130429) Rate limit hit',
    details: 'Cloud API message throughput has been reached.',
  },
  pairRateLimit: {
    status: 400,
    code: 131056,
    message: '(#131056) (Business Account, Consumer Account) pair rate limit hit',
    details:
      'Message failed to send because there were too many messages sent from this phone number to the same phone number in a short period of time.',
  },
  serverError: {
    status: 500,
    code: 131000,
    message: '(#131000) Something went wrong',
    details: 'Message failed to send due to an unknown error.',
  },
  outsideWindow: {
    status: 400,
    code: 131047,
    message: '(#131047) Re-engagement message',
    details: 'Message failed to send because more than 24 hours have passed since the customer last replied to this number.',
  },
  tokenExpired: {
    status: 401,
    code: 190,
    subcode: 463,
    message: 'Error validating access token: Session has expired.',
  },
} satisfies Record<string, ScriptedGraphError>;

export interface SentMessage {
  apiVersion: string;
  phoneNumberId: string;
  body: Record<string, unknown>;
  /** The id the send was answered with. */
  messageId: string;
  at: string;
}

export interface ReadReceipt {
  apiVersion: string;
  phoneNumberId: string;
  messageId: string;
  typing: boolean;
  at: string;
}

export interface FakeMessagingPlatform {
  /** The Graph base address, without a version: what `GRAPH_API_BASE_URL` is set to. */
  url: string;
  /** Messages accepted, in order. */
  sent: SentMessage[];
  /** Mark-as-read calls accepted, in order. */
  reads: ReadReceipt[];
  /** Every request with its answer's status and error code, failures included (to count retries). */
  requests: Array<{ path: string; status: number; code?: number }>;
  /**
   * The next `count` message sends (not mark-as-read calls, not repeats of a key already taken) answer
   * `error`; with `to`, only sends to that customer count; with `after`, that many go through first.
   */
  failNext(count: number, error: ScriptedGraphError, options?: SendFilter & { after?: number }): void;
  /** The next `count` sends (to `to`) are taken, and delivered, but never answered: the caller times out. */
  loseAnswers(count: number, options?: SendFilter): void;
  /** The next send (to `to`) waits, unanswered and not yet delivered, until the function returned is called. */
  holdNext(options?: SendFilter): () => void;
  /** How many sends (to `to`) are held now. */
  held(options?: SendFilter): number;
  acceptToken(token: string): void;
  /** From now on the token is refused with 401, code 190, as a revoked token is. */
  revokeToken(token: string): void;
  /** Sends to this customer answer 400, code 131026 (not on WhatsApp, or has blocked the business). */
  unavailable(waId: string): void;
  /** The business's account approves (or pauses, disables) a template: template sends are checked against these. */
  approveTemplate(template: FakeTemplate): void;
  /** The customer last wrote more than 24 hours ago: free-form sends to them answer 131047, templates go through. */
  closeWindow(waId: string): void;
  openWindow(waId: string): void;
  /** Files uploaded to the media endpoint, in order. */
  uploaded: UploadedMedia[];
  close(): Promise<void>;
}

/** Which sends a scripted behaviour applies to: to one customer (as the payload's `to` names them), or any. */
export interface SendFilter {
  to?: string;
}

type GraphAnswer = { status: number; body: object };

/** One scripted behaviour, waiting for the send it applies to. */
type Scripted = { to?: string; skip: number } & (
  { kind: 'fail'; error: ScriptedGraphError } | { kind: 'lose' } | { kind: 'hold'; released: Promise<void> }
);

export async function startFakeMessagingPlatform({
  accessTokens = [fakeAccessToken],
}: { accessTokens?: string[] } = {}): Promise<FakeMessagingPlatform> {
  const tokens = new Set(accessTokens);
  const unreachable = new Set<string>();
  const scripted: Scripted[] = [];
  /** Keys taken, with the body sent and the id answered. */
  const taken = new Map<string, { body: string; messageId: string }>();
  /** The customers (wa_id) of the sends held now, one entry each. */
  const holding: string[] = [];
  const sent: SentMessage[] = [];
  const reads: ReadReceipt[] = [];
  const requests: FakeMessagingPlatform['requests'] = [];
  const extras = createFakeExtras();

  async function answer(request: IncomingMessage): Promise<GraphAnswer> {
    const authorization = request.headers.authorization ?? '';
    if (!authorization.startsWith('Bearer ')) {
      return graphError(400, 104, 'An access token is required to request this resource.');
    }
    if (!tokens.has(authorization.slice('Bearer '.length))) {
      return graphError(401, 190, 'Invalid OAuth access token - Cannot parse access token');
    }
    const media = /^\/(v\d+\.\d+)\/(\d+)\/media$/.exec(request.url ?? '');
    if (media && request.method === 'POST') {
      const uploaded = await extras.upload(request, media[2]!);
      return 'id' in uploaded
        ? { status: 200, body: uploaded }
        : graphError(uploaded.status, uploaded.code, uploaded.message, uploaded);
    }
    const [, apiVersion = '', phoneNumberId = ''] = /^\/([^/]*)\/([^/]*)\/messages$/.exec(request.url ?? '') ?? [];
    if (request.method !== 'POST' || !/^v\d+\.\d+$/.test(apiVersion)) {
      return graphError(400, 100, `Unknown path components: ${request.url}`, { type: 'GraphMethodException' });
    }
    if (!/^\d+$/.test(phoneNumberId)) {
      const message = `Unsupported post request. Object with ID '${phoneNumberId}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`;
      return graphError(400, 100, message, { type: 'GraphMethodException', subcode: 33 });
    }
    const body = parseObject(await readBody(request));
    if (!body) return graphError(400, 100, '(#100) Invalid parameter');
    if (body.messaging_product !== 'whatsapp') {
      return graphError(400, 100, '(#100) The parameter messaging_product is required.');
    }
    const at = new Date().toISOString();

    if (body.status !== undefined) return markRead(body, apiVersion, phoneNumberId, at);

    const key = request.headers[idempotencyKeyHeader];
    const to = String(body.to);
    const waId = to.replace(/^\+/, '');
    const seen = typeof key === 'string' ? taken.get(key) : undefined;
    if (seen && seen.body !== JSON.stringify(body)) {
      return graphError(400, 100, '(#100) The Idempotency-Key was used before with another payload.');
    }
    if (seen) return accepted(to, waId, seen.messageId);

    const script = nextScripted(waId);
    if (script?.kind === 'fail') return graphError(script.error.status, script.error.code, script.error.message, script.error);
    if (script?.kind === 'hold') {
      holding.push(waId);
      await script.released;
      holding.splice(holding.indexOf(waId), 1);
    }
    const refused = extras.checkSend(phoneNumberId, waId, body);
    if (refused) return graphError(refused.status, refused.code, refused.message, refused);
    // Templates and files were checked by the extras; text and interactive messages by their rules.
    const problems = ['template', 'image', 'document'].includes(String(body.type)) ? [] : validateOutboundPayload(body);
    if (problems.length > 0) return graphError(400, 131009, '(#131009) Parameter value is not valid', { details: problems[0] });
    if (unreachable.has(waId)) {
      return graphError(400, 131026, '(#131026) Message Undeliverable.', { details: 'Message Undeliverable.' });
    }

    const messageId = newMessageId();
    sent.push({ apiVersion, phoneNumberId, body, messageId, at });
    if (typeof key === 'string') taken.set(key, { body: JSON.stringify(body), messageId });
    // Taken and delivered, but the answer never leaves: the caller gives up (its timeout) first.
    if (script?.kind === 'lose') await new Promise((resolve) => request.socket.once('close', resolve));
    return accepted(to, waId, messageId);
  }

  /**
   * Mark as read (with the typing indicator): only `status: "read"`, and only for a message a customer
   * sent (not one of ours, not an id the platform never delivered); `typing_indicator` is `{type: "text"}`.
   */
  function markRead(body: Record<string, unknown>, apiVersion: string, phoneNumberId: string, at: string): GraphAnswer {
    if (body.status !== 'read')
      return graphError(400, 100, '(#100) Param status must be one of {READ} - got "' + String(body.status) + '".');
    const messageId = body.message_id;
    if (typeof messageId !== 'string' || messageId === '')
      return graphError(400, 100, '(#100) The parameter message_id is required.');
    const typing = body.typing_indicator;
    if (typing !== undefined && (!isObject(typing) || typing.type !== 'text' || Object.keys(typing).length !== 1)) {
      return graphError(400, 131009, '(#131009) Parameter value is not valid', {
        details: 'typing_indicator.type must be "text"',
      });
    }
    if (!inboundIds.has(messageId) || sent.some((message) => message.messageId === messageId)) {
      return graphError(400, 100, '(#100) Invalid parameter', {
        details: `message_id ${messageId} is not a message this business received: only inbound messages can be marked as read.`,
      });
    }
    reads.push({ apiVersion, phoneNumberId, messageId, typing: typing !== undefined, at });
    return { status: 200, body: { success: true } };
  }

  /** The scripted behaviour this send meets, if any: the first one waiting for its customer, once its `after` sends went through. */
  function nextScripted(waId: string): Scripted | undefined {
    const index = scripted.findIndex((entry) => entry.to === undefined || entry.to.replace(/^\+/, '') === waId);
    const entry = scripted[index];
    if (!entry) return undefined;
    if (entry.skip > 0) {
      entry.skip--;
      return undefined;
    }
    scripted.splice(index, 1);
    return entry;
  }

  function accepted(to: string, waId: string, messageId: string): GraphAnswer {
    return {
      status: 200,
      body: { messaging_product: 'whatsapp', contacts: [{ input: to, wa_id: waId }], messages: [{ id: messageId }] },
    };
  }

  const server = await startAnsweringFake({
    answer,
    failed: () => graphError(500, 1, 'An unknown error occurred'),
    answered(request, _url, { status, body }) {
      const code = 'error' in body ? (body.error as { code: number }).code : undefined;
      requests.push({ path: request.url ?? '', status, ...(code === undefined ? {} : { code }) });
    },
    contentType: { json: 'application/json; charset=UTF-8' },
  });

  return {
    url: server.url,
    sent,
    reads,
    requests,
    failNext(count, error, { to, after = 0 } = {}) {
      for (let i = 0; i < count; i++) scripted.push({ kind: 'fail', error, to, skip: i === 0 ? after : 0 });
    },
    loseAnswers(count, { to } = {}) {
      for (let i = 0; i < count; i++) scripted.push({ kind: 'lose', to, skip: 0 });
    },
    holdNext({ to } = {}) {
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      scripted.push({ kind: 'hold', released, to, skip: 0 });
      return release;
    },
    held: ({ to } = {}) => holding.filter((waId) => to === undefined || waId === to.replace(/^\+/, '')).length,
    acceptToken: (token) => void tokens.add(token),
    revokeToken: (token) => void tokens.delete(token),
    unavailable: (waId) => void unreachable.add(waId.replace(/^\+/, '')),
    approveTemplate: extras.approveTemplate,
    closeWindow: extras.closeWindow,
    openWindow: extras.openWindow,
    uploaded: extras.uploaded,
    close: server.close,
  };
}

/** The ids of the customer messages the builders below made: the only ones the platform lets us mark as read. */
const inboundIds = new Set<string>();

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A Graph error body; WhatsApp codes carry `error_data`, Graph's own (100, 104, 190) do not. */
function graphError(
  status: number,
  code: number,
  message: string,
  { details, subcode, type = 'OAuthException' }: { details?: string; subcode?: number; type?: string } = {},
): GraphAnswer {
  const error = {
    message,
    type,
    code,
    ...(details === undefined ? {} : { error_data: { messaging_product: 'whatsapp', details } }),
    ...(subcode === undefined ? {} : { error_subcode: subcode }),
    fbtrace_id: randomBytes(24)
      .toString('base64')
      .replace(/[^A-Za-z0-9]/g, '')
      .slice(0, 23),
  };
  return { status, body: { error } };
}

// ---- The webhook side -------------------------------------------------------------------------

/** Options of `deliver`: sign with `appSecret`, or send `signature` as it is, or no header when it is null. */
export interface DeliverOptions {
  appSecret?: string;
  signature?: string | null;
}

/** POSTs a delivery to our callback as the platform would; answers our status and body. */
export async function deliver(
  webhookUrl: string,
  body: object | string,
  { appSecret, signature }: DeliverOptions = {},
): Promise<{ status: number; body: string }> {
  const raw = typeof body === 'string' ? body : platformJson(body);
  const header = signature !== undefined ? signature : appSecret !== undefined ? signBody(Buffer.from(raw), appSecret) : null;
  const response = await fetch(webhookUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(header === null ? {} : { 'x-hub-signature-256': header }) },
    body: raw,
  });
  return { status: response.status, body: await response.text() };
}

/** JSON as the platform writes it: compact, every non-ASCII code unit as a lowercase `\uXXXX` escape. */
export function platformJson(body: unknown): string {
  return JSON.stringify(body).replace(/[\u0080-\uffff]/g, (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A sample of `tools/testing/messaging-samples/`, by file name without `.json`, parsed afresh. */
export function readSample(name: string): any {
  return JSON.parse(readFileSync(new URL(`./messaging-samples/${name}.json`, import.meta.url), 'utf8'));
}

export interface InboundOverrides {
  phoneNumberId?: string;
  /** The customer's wa_id. */
  from?: string;
  name?: string;
  /** The message's (or status's) wamid; a fresh one by default, so that no two deliveries look like duplicates. */
  id?: string;
  /** When the customer sent it; now by default, so that the 24-hour window is open. */
  timestamp?: Date;
}

/**
 * A sample delivery (`inbound-image`, `status-read`, …) rewritten for a test: its business number,
 * customer, message id and time replaced wherever they appear.
 */
export function inboundOf(sampleName: string, overrides: InboundOverrides = {}): any {
  const delivery = readSample(sampleName);
  const id = overrides.id ?? newMessageId();
  const timestamp = unixSeconds(overrides.timestamp ?? new Date());
  for (const entry of delivery.entry) {
    for (const { value } of entry.changes) {
      if (overrides.phoneNumberId) value.metadata.phone_number_id = overrides.phoneNumberId;
      for (const contact of value.contacts ?? []) {
        if (overrides.from) contact.wa_id = overrides.from;
        if (overrides.name) contact.profile.name = overrides.name;
      }
      if ((value.messages ?? []).length > 0) inboundIds.add(id);
      for (const item of [...(value.messages ?? []), ...(value.statuses ?? [])]) {
        Object.assign(item, { id, timestamp });
        if (overrides.from && 'from' in item) item.from = overrides.from;
        if (overrides.from && 'recipient_id' in item) item.recipient_id = overrides.from;
      }
    }
  }
  return delivery;
}

/** The id of a message a customer sent (as the builders below make them): one the platform lets us mark as read. */
export function inboundMessageId(): string {
  const id = newMessageId();
  inboundIds.add(id);
  return id;
}

/** A customer's text message, as the platform delivers it. */
export function inboundText({ text, ...overrides }: InboundOverrides & { text: string }): any {
  const delivery = inboundOf('inbound-text', overrides);
  delivery.entry[0].changes[0].value.messages[0].text.body = text;
  return delivery;
}

/** A status of one of our messages; `failed` carries `error` (131047 by default, the window having closed). */
export function statusUpdate({
  phoneNumberId = sampleBusiness.phoneNumberId,
  messageId,
  status,
  recipientId,
  error = { code: 131047, title: 'Re-engagement message', details: graphErrors.outsideWindow.details },
  timestamp = new Date(),
}: {
  phoneNumberId?: string;
  messageId: string;
  status: 'sent' | 'delivered' | 'read' | 'failed';
  recipientId: string;
  error?: { code: number; title: string; details?: string };
  timestamp?: Date;
}): any {
  const pricing = { billable: false, pricing_model: 'PMP', category: 'service', type: 'free_customer_service' };
  const failure = {
    code: error.code,
    title: error.title,
    message: error.title,
    ...(error.details ? { error_data: { details: error.details } } : {}),
    href: 'https://developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes/',
  };
  const item = {
    id: messageId,
    status,
    timestamp: unixSeconds(timestamp),
    recipient_id: recipientId,
    ...(status === 'sent' || status === 'delivered' ? { pricing } : {}),
    ...(status === 'failed' ? { errors: [failure] } : {}),
  };
  return envelope(phoneNumberId, { statuses: [item] });
}

function envelope(phoneNumberId: string, value: object): object {
  const metadata = { display_phone_number: sampleBusiness.displayPhoneNumber, phone_number_id: phoneNumberId };
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: sampleBusiness.businessAccountId,
        changes: [{ field: 'messages', value: { messaging_product: 'whatsapp', metadata, ...value } }],
      },
    ],
  };
}

function newMessageId(): string {
  return `wamid.HBgL${randomBytes(30).toString('base64')}`;
}

function unixSeconds(date: Date): string {
  return String(Math.floor(date.getTime() / 1000));
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
