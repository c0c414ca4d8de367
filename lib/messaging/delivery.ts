import { stringsFor } from '#answering/locales.js';
import type { ChatMessage } from '#conversations/chat-message.js';
import type { DeliveryProblem } from '#conversations/events.js';
import type { Transcript } from '#conversations/transcript.js';
import type { ChannelState } from './channel-state.js';
import { GraphApiError, type GraphClient, type GraphCredential } from './graph-client.js';
import { extrasPayloads, sendableOutsideWindow } from './agent-extras.js';
import { deliveryProblemCode, platformErrorOf } from './graph-errors.js';
import { markIfTokenRefused } from './token-refusal.js';
import { choiceMessages, textMessages } from './outbound-message.js';
import { askPayload } from './feedback-asks.js';
import type { ConversationRef } from '#workflows/conversations/types.js';

/** The button an AI answer that found nothing offers: tapping it asks for a person. */
export const handoffChoiceId = 'handoff';

/** What delivering needs of a connection: its send credentials, and marking a token that stopped working. */
export interface DeliveryConnections {
  get(connectionId: string): Promise<DeliveryConnection | undefined>;
  credentialsOf(connection: DeliveryConnection): Promise<{ accessToken: string }>;
  markTokenInvalid(connectionId: string): Promise<void>;
}

export interface DeliveryConnection {
  id: string;
  phoneNumberId: string;
  apiVersion: string;
  /** `token_invalid`: the platform refused the token; nothing is sent until it is replaced. */
  status: 'active' | 'token_invalid';
}

export interface DeliveryDeps {
  transcript: Pick<Transcript, 'readFrom'>;
  channel: ChannelState;
  connections: DeliveryConnections;
  graph: GraphClient;
  metrics?: DeliveryMetrics;
  now?: () => Date;
}

/**
 * What delivering counts (the worker's metrics), per message: `sent`, or why it failed for good (a
 * code of our own: `window_closed`, `token_invalid`, `connection_removed`, `platform_error`, ...);
 * and each send the platform refused for now (`retried`: Temporal tries the run again).
 */
export interface DeliveryMetrics {
  delivered(outcome: string): void;
}

/**
 * What a run did; `more`: it stopped for time with messages left, which the next run sends;
 * `windowClosed`: a message was refused because the 24-hour window had closed (131047, or found
 * closed before sending): the conversation needs a person.
 */
export interface DeliveryResult {
  sent: number;
  failed: number;
  more: boolean;
  windowClosed?: true;
}

/** One run's bounds: when to stop starting sends (epoch ms), its cancellation, and how long its claim holds. */
export interface DeliveryRun {
  deadline: number;
  signal: AbortSignal;
  claimMs: number;
}

/**
 * The conversation's delivery claim: another run holds it (`delivery_busy`), or this run lost it
 * (`delivery_claim_lost`, frozen past its expiry). Either way the run is to be tried again later.
 */
export class DeliveryClaimError extends Error {
  constructor(
    readonly code: 'delivery_busy' | 'delivery_claim_lost',
    message: string,
  ) {
    super(message);
    this.name = 'DeliveryClaimError';
  }
}

/** What became of one message in a run; `stopped`: out of time between its parts, the rest goes next run. */
type Outcome = 'sent' | 'failed' | 'stopped';

/**
 * Sends a messaging conversation's messages to the customer: every AI, agent and system message of
 * the transcript that has not gone out yet, in order, through the platform's send endpoint with the
 * connection's credentials. Throttling and server errors are thrown, for the run to be tried again
 * (by Temporal, with backoff); anything permanent (the 24-hour window has closed, the token was
 * revoked, the customer cannot be reached) is recorded on the message and the conversation for
 * agents, and delivery moves on. Once the token was refused (the connection is `token_invalid`), the platform is not
 * called again: each message is recorded as not sent, with why.
 *
 * Nothing is sent twice: each part of a message is recorded with its platform id the moment it is
 * sent, and a later run sends only the parts missing; each send carries an idempotency key of its
 * conversation, message and part; one run at a time holds the conversation's delivery claim (else
 * `DeliveryClaimError`). A run reads the transcript only after its delivery cursor, starts no send
 * past its deadline (once it has sent something) and none once cancelled: what is left goes out on
 * the next run.
 */
export function createDelivery({
  transcript,
  channel,
  connections,
  graph,
  metrics = { delivered: () => undefined },
  now = () => new Date(),
}: DeliveryDeps) {
  /** `platform`: the platform's own error number and title, when it refused the send itself. */
  async function fail(
    ref: ConversationRef,
    message: ChatMessage,
    code: string,
    text: string,
    partsSent: string[] = [],
    platform: Pick<DeliveryProblem, 'platformCode' | 'platformTitle'> = {},
  ) {
    const problem: DeliveryProblem = { code, message: text, at: now().toISOString(), ...platform };
    await channel.recordFailed(ref.conversationId, message.id, problem, partsSent);
    // The platform's own error numbers are many: the metric keeps their kind.
    metrics.delivered(code.startsWith('platform_error_') ? 'platform_error' : code);
  }

  async function run(ref: ConversationRef, bounds: DeliveryRun): Promise<DeliveryResult> {
    const result: DeliveryResult = { sent: 0, failed: 0, more: false };
    if (!ref.messaging) return result;
    const conversationId = ref.conversationId;
    const claim = await channel.claimDelivery(conversationId, bounds.claimMs);
    if (!claim) {
      throw new DeliveryClaimError('delivery_busy', "Another run is delivering this conversation's messages.");
    }
    let sends = 0;
    /** Before each send: cancelled, it throws; out of time (once this run has sent something), it answers true. */
    const outOfTime = (): boolean => {
      bounds.signal.throwIfAborted();
      return sends > 0 && Date.now() >= bounds.deadline;
    };
    const cursor = await channel.deliveryCursor(conversationId);
    let settled = cursor;
    try {
      const entries = await transcript.readFrom(conversationId, cursor);
      const connection = entries.some(({ message }) => message.author !== 'visitor')
        ? await connections.get(ref.messaging.connectionId)
        : undefined;
      let credential: GraphCredential | undefined;
      // A refused token is refused again: the platform is not called with it until it is replaced.
      let tokenInvalid = connection?.status === 'token_invalid';

      /** Sends what of the message has not gone out, part by part, each recorded as it goes. */
      async function sendParts(message: ChatMessage, connection: DeliveryConnection): Promise<Outcome> {
        const payloads = payloadsOf(ref, message, await replyToOf(ref, message));
        const platformIds = await channel.partsSent(conversationId, message.id, payloads.length);
        try {
          for (const [index, payload] of payloads.entries()) {
            if (platformIds[index]) continue;
            if (outOfTime()) return 'stopped';
            // A run frozen past its claim's expiry must not send beside the run that claimed after it.
            if (!(await channel.holdsDelivery(conversationId, claim!))) {
              throw new DeliveryClaimError('delivery_claim_lost', 'The delivery claim expired during the run.');
            }
            // Opened once per run, and only when there is something to send.
            credential ??= {
              apiVersion: connection.apiVersion,
              phoneNumberId: connection.phoneNumberId,
              accessToken: (await connections.credentialsOf(connection)).accessToken,
            };
            const idempotencyKey = `${conversationId}/${message.id}/${index}`;
            const { messageId } = await graph.sendMessage(credential, payload, { idempotencyKey });
            sends++;
            platformIds[index] = messageId;
            await channel.recordPartSent(conversationId, message.id, {
              index,
              platformId: messageId,
              connectionId: connection.id,
            });
          }
        } catch (error) {
          if (error instanceof GraphApiError && error.kind === 'retryable') metrics.delivered('retried');
          if (!(error instanceof GraphApiError) || error.kind === 'retryable') throw error;
          if (await markIfTokenRefused(connections, connection.id, error)) tokenInvalid = true;
          await fail(
            ref,
            message,
            codeOf(error),
            error.details || error.title,
            platformIds.filter(isString),
            platformErrorOf(error.code, error.title),
          );
          if (error.kind === 'window_closed') {
            // The platform's clock is the truth: what follows is refused before it reaches the platform.
            await channel.closeWindow(conversationId, now());
            result.windowClosed = true;
          }
          return 'failed';
        }
        await channel.recordSent(conversationId, message.id, platformIds as string[], connection.id);
        metrics.delivered('sent');
        return 'sent';
      }

      async function deliverOne(message: ChatMessage): Promise<Outcome> {
        if (!connection) {
          await fail(ref, message, 'connection_removed', 'The messaging connection of this conversation no longer exists.');
          return 'failed';
        }
        if (tokenInvalid) {
          await fail(
            ref,
            message,
            'token_invalid',
            "The platform refused this connection's access token: nothing is sent on it until the token is replaced.",
          );
          return 'failed';
        }
        const windowOpenUntil = await channel.windowOpenUntil(conversationId);
        if ((!windowOpenUntil || windowOpenUntil <= now()) && !sendableOutsideWindow(message)) {
          const parts = await channel.partsSent(conversationId, message.id, payloadsOf(ref, message).length);
          await fail(
            ref,
            message,
            'window_closed',
            'The customer-service window has closed (24 hours since the customer last wrote, or the platform refused a message for it): the platform only allows approved templates.',
            parts.filter(isString),
          );
          result.windowClosed = true;
          return 'failed';
        }
        return sendParts(message, connection);
      }

      for (const { position, message } of entries) {
        if (message.author !== 'visitor' && !(await channel.deliveryOf(conversationId, message.id))) {
          const outcome = await deliverOne(message);
          if (outcome === 'stopped') {
            result.more = true;
            break;
          }
          result[outcome]++;
        }
        settled = position + 1;
      }
    } finally {
      // Everything before `settled` is sent or failed for good: the next run starts there.
      if (settled > cursor) await channel.advanceDeliveryCursor(conversationId, settled);
      await channel.releaseDelivery(conversationId, claim);
    }
    return result;
  }

  /** The customer message a reply answers: the AI's its question, an agent's the customer's latest. */
  async function replyToOf(ref: ConversationRef, message: ChatMessage): Promise<string | undefined> {
    if (message.author === 'agent') return channel.lastCustomerMessageId(ref.conversationId);
    return message.replyTo;
  }

  return { run };
}

export type Delivery = ReturnType<typeof createDelivery>;

function isString(value: string | undefined): value is string {
  return value !== undefined;
}

/**
 * The platform payloads of one message: an answer that found nothing offers a person as a button, a
 * feedback ask its buttons or list;
 * `replyTo`, the customer message it answers (its first part quotes it).
 */
function payloadsOf(ref: ConversationRef, message: ChatMessage, replyTo?: string): object[] {
  const to = ref.messaging!.customer;
  const extras = extrasPayloads(to, message, replyTo);
  if (extras) return extras;
  // A feedback ask: reply buttons or a list whose ids name the conversation they rate.
  if (message.ask) return [askPayload(ref, { ...message, ask: message.ask })];
  if (message.author === 'ai' && message.outcome === 'unknown') {
    const label = stringsFor(ref.locale).handoffButton;
    return choiceMessages(to, message.text, [{ id: handoffChoiceId, title: label }], { replyTo });
  }
  const text = message.author === 'agent' && message.agent ? `*${message.agent.name}:* ${message.text}` : message.text;
  return textMessages(to, text, { replyTo });
}

/** Agents see what happened in words of our own (the error's kind), not the platform's numbers. */
function codeOf(error: GraphApiError): string {
  return deliveryProblemCode(error.code, error.kind);
}
