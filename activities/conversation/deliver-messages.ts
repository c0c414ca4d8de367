import { resolveLocale, stringsFor } from '#answering/locales.js';
import type { ChatMessage } from '#conversations/chat-message.js';
import type { Transcript } from '#conversations/transcript.js';
import type { ChannelState, DeliveryProblem } from '#messaging/channel-state.js';
import { GraphApiError, type GraphClient, type GraphCredential } from '#messaging/graph-client.js';
import { choiceMessages, textMessages } from '#messaging/outbound-message.js';
import type { ConversationRef } from '#workflows/conversation/types.js';

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
  transcript: Pick<Transcript, 'read'>;
  channel: ChannelState;
  connections: DeliveryConnections;
  graph: GraphClient;
  now?: () => Date;
}

/**
 * Sends a messaging conversation's messages to the customer: every AI, agent and system message of
 * the transcript that has not gone out yet, in order, through the platform's send endpoint with the
 * connection's credentials. Throttling and server errors are thrown, so Temporal retries them with
 * backoff; anything permanent (the 24-hour window has closed, the token was revoked, the customer
 * cannot be reached) is recorded on the message and the conversation for agents, and delivery
 * moves on. Once the token was refused (the connection is `token_invalid`), the platform is not
 * called again: each message is recorded as not sent, with why. Running it again sends nothing twice.
 */
export function createDeliveryActivities({ transcript, channel, connections, graph, now = () => new Date() }: DeliveryDeps) {
  async function fail(ref: ConversationRef, message: ChatMessage, code: string, text: string): Promise<void> {
    const problem: DeliveryProblem = { code, message: text, at: now().toISOString() };
    await channel.recordFailed(ref.conversationId, message.id, problem);
  }

  return {
    async deliverMessages(input: { conversation: ConversationRef }): Promise<{ sent: number; failed: number }> {
      const ref = input.conversation;
      const result = { sent: 0, failed: 0 };
      if (!ref.messaging) return result;
      const connection = await connections.get(ref.messaging.connectionId);
      const outgoing = (await transcript.read(ref.conversationId)).filter((message) => message.author !== 'visitor');
      let credential: GraphCredential | undefined;
      // A refused token is refused again: the platform is not called with it until it is replaced.
      let tokenInvalid = connection?.status === 'token_invalid';

      for (const message of outgoing) {
        if (await channel.deliveryOf(ref.conversationId, message.id)) continue;
        if (!connection) {
          await fail(ref, message, 'connection_removed', 'The messaging connection of this conversation no longer exists.');
          result.failed++;
          continue;
        }
        if (tokenInvalid) {
          await fail(
            ref,
            message,
            'token_invalid',
            "The platform refused this connection's access token: nothing is sent on it until the token is replaced.",
          );
          result.failed++;
          continue;
        }
        const windowOpenUntil = await channel.windowOpenUntil(ref.conversationId);
        if (!windowOpenUntil || windowOpenUntil <= now()) {
          await fail(
            ref,
            message,
            'window_closed',
            'More than 24 hours have passed since the customer last wrote: the platform only allows templates, which are not supported yet.',
          );
          result.failed++;
          continue;
        }
        try {
          // Opened once per run, and only when there is something to send.
          credential ??= {
            apiVersion: connection.apiVersion,
            phoneNumberId: connection.phoneNumberId,
            accessToken: (await connections.credentialsOf(connection)).accessToken,
          };
          const platformIds: string[] = [];
          for (const payload of payloadsOf(ref, message))
            platformIds.push((await graph.sendMessage(credential, payload)).messageId);
          await channel.recordSent(ref.conversationId, message.id, platformIds, connection.id);
          result.sent++;
        } catch (error) {
          if (!(error instanceof GraphApiError) || error.kind === 'retryable') throw error;
          if (error.kind === 'token_invalid') {
            await connections.markTokenInvalid(connection.id);
            tokenInvalid = true;
          }
          await fail(ref, message, codeOf(error), error.details || error.title);
          result.failed++;
        }
      }
      return result;
    },
  };
}

/** The platform payloads of one message: an answer that found nothing offers a person as a button. */
function payloadsOf(ref: ConversationRef, message: ChatMessage): object[] {
  const to = ref.messaging!.customer;
  if (message.author === 'ai' && message.outcome === 'unknown') {
    const label = stringsFor(resolveLocale(ref.locale)).handoffButton;
    return choiceMessages(to, message.text, [{ id: handoffChoiceId, title: label }]);
  }
  const text = message.author === 'agent' && message.agent ? `*${message.agent.name}:* ${message.text}` : message.text;
  return textMessages(to, text);
}

/** Agents see what happened in words of our own (the error's kind), not the platform's numbers. */
function codeOf(error: GraphApiError): string {
  return error.kind === 'permanent' ? `platform_error_${error.code ?? 'unknown'}` : error.kind;
}
