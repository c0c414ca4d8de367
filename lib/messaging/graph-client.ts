/**
 * The calls the channel makes to the Graph API: send a message, mark a customer's message read.
 * The base address comes from configuration (`GRAPH_API_BASE_URL`), never from request data, so
 * tests point it at `tools/testing/fake-messaging-platform.ts`. Failures throw a `GraphApiError` sorted
 * by what to do about them; retrying is the caller's business (the activity's retry policy).
 */
import { readCappedText } from '#platform/outbound/capped-body.js';
import { OutboundError } from '#platform/outbound/outbound-error.js';
import { classifyGraphError, GraphApiError, unansweredGraphCall } from './graph-errors.js';

export { GraphApiError, kindOfErrorCode, type GraphErrorKind } from './graph-errors.js';

/** The parts of a `messaging_api` credential a call needs. */
export interface GraphCredential {
  /** `v<major>.<minor>`, e.g. `v23.0`. */
  apiVersion: string;
  phoneNumberId: string;
  accessToken: string;
}

/**
 * The header each send carries a key in, stable per conversation, message and part, so that a retry
 * of a send is the same send. The real platform documents no idempotency key and may ignore it
 * (docs/messaging.md): there, what protects the customer from a second copy is the record of each
 * part sent (`lib/messaging/channel-state.ts`), which a retry reads first.
 */
export const idempotencyKeyHeader = 'idempotency-key';

/** How long a call may take, answer included, unless the client is told otherwise. */
export const defaultGraphTimeoutMs = 10_000;

export interface GraphClientOptions {
  /** e.g. `https://graph.facebook.com`, without a version. */
  baseUrl: string;
  fetch?: typeof globalThis.fetch;
  /** Per call, answer included. */
  timeoutMs?: number;
  /** Largest answer read (the platform's are a few hundred bytes); default 1 MiB. */
  maxResponseBytes?: number;
}

export interface SendResult {
  /** The platform's id of the sent message (`wamid.…`); its statuses arrive under this id. */
  messageId: string;
}

export interface GraphClient {
  /**
   * Sends one message, a payload built by `outbound-message.ts`. A 200 means accepted, not delivered: a `failed` status may still follow.
   * `idempotencyKey` goes out as the `Idempotency-Key` header; a platform that honours it answers a
   * repeated key with the first id. One that ignores it (see `idempotencyKeyHeader`) may deliver a
   * send retried after a timeout (no answer) twice.
   */
  sendMessage(credential: GraphCredential, payload: object, options?: { idempotencyKey?: string }): Promise<SendResult>;
  /** Marks a customer's message (and the ones before it) read; with `typing`, shows "typing…" for up to 25 s. */
  markRead(credential: GraphCredential, messageId: string, options?: { typing?: boolean }): Promise<void>;
}

export function createGraphClient({
  baseUrl,
  fetch = globalThis.fetch,
  timeoutMs = defaultGraphTimeoutMs,
  maxResponseBytes = 1024 * 1024,
}: GraphClientOptions): GraphClient {
  const base = baseUrl.replace(/\/+$/, '');
  const host = new URL(base).hostname;

  /** POSTs to the number's `/messages` edge; answers the parsed 2xx body or throws a GraphApiError. */
  async function postMessages(credential: GraphCredential, body: object, idempotencyKey?: string): Promise<unknown> {
    const { apiVersion, phoneNumberId, accessToken } = credential;
    const url = `${base}/${encodeURIComponent(apiVersion)}/${encodeURIComponent(phoneNumberId)}/messages`;
    let response: Response;
    let answeredStatus: number | null = null;
    let text: string;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${accessToken}`,
          'content-type': 'application/json',
          ...(idempotencyKey ? { [idempotencyKeyHeader]: idempotencyKey } : {}),
        },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
      answeredStatus = response.status;
      text = await readCappedText(response, maxResponseBytes, host);
    } catch (error) {
      // Answered, but more than any answer of the platform: the message may well be out, so not sent again.
      if (error instanceof OutboundError) {
        throw new GraphApiError({ status: answeredStatus, code: null, title: error.message, kind: 'permanent' });
      }
      const timedOut = error instanceof Error && error.name === 'TimeoutError';
      const reason = timedOut ? `no answer within ${timeoutMs} ms` : `request failed: ${causeOf(error)}`;
      throw unansweredGraphCall(redact(reason, accessToken));
    }
    const parsed = parseJson(redact(text, accessToken));
    if (!response.ok) throw classifyGraphError(response.status, parsed);
    return parsed;
  }

  return {
    async sendMessage(credential, payload, { idempotencyKey } = {}) {
      const answer = await postMessages(credential, payload, idempotencyKey);
      const messages = isRecord(answer) && Array.isArray(answer.messages) ? answer.messages : [];
      const first: unknown = messages[0];
      const messageId = isRecord(first) ? first.id : undefined;
      if (typeof messageId !== 'string' || messageId === '') {
        // Accepted, yet without an id to follow: sending again could duplicate it, so not retryable.
        throw new GraphApiError({
          status: 200,
          code: null,
          title: 'The send was answered without a message id',
          kind: 'permanent',
        });
      }
      return { messageId };
    },

    async markRead(credential, messageId, { typing = false } = {}) {
      await postMessages(credential, {
        messaging_product: 'whatsapp',
        status: 'read',
        message_id: messageId,
        ...(typing ? { typing_indicator: { type: 'text' } } : {}),
      });
    },
  };
}

/** fetch's own error says only "fetch failed"; the reason (ECONNREFUSED, …) is in its cause. */
function causeOf(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  return cause instanceof Error ? cause.message : String(cause);
}

/** Whatever the platform or the network said, the token is not repeated into an error or a log. */
function redact(text: string, secret: string): string {
  return secret === '' ? text : text.replaceAll(secret, '[redacted]');
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
