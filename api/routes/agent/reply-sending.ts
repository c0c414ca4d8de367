import { isConversationId, type ConversationRecord, type ConversationRecords } from '#conversations/records.js';
import {
  ActionNotConfirmedError,
  ConversationActionRefusedError,
  ConversationClosedError,
  type ConversationClient,
} from '#conversations/workflow-client.js';
import type { ChannelState } from '#messaging/channel-state.js';
import { AppError, conflict, conversationClosed } from '#api/errors.js';
import { ownedBy } from '#api/ownership.js';
import type { UserState } from '#api/state.js';
import type { PreparedReply } from './reply-extras.js';

export interface ReplySendingDeps {
  records: Pick<ConversationRecords, 'get'>;
  conversations: Pick<ConversationClient, 'agentReply'>;
  channel: Pick<ChannelState, 'windowOpenUntil'>;
}

/**
 * What every route that sends an agent's message to the customer shares (the reply, a template, a
 * file, a canned reply): the conversation the tenant owns, its messaging window, and the hand-over
 * to the conversation's workflow, answered 202 `{messageId}`.
 */
export function createReplySending({ records, conversations, channel }: ReplySendingDeps) {
  return {
    owned: (tenantId: string, conversationId: string) => ownedConversation(records, tenantId, conversationId),

    /** Until when free-form messages may be sent (messaging); undefined on the widget, or when the customer never wrote. */
    async windowOf(conversation: ConversationRecord): Promise<Date | undefined> {
      return conversation.channel === 'messaging' ? channel.windowOpenUntil(conversation.conversationId) : undefined;
    },

    /** Hands the agent's message to the conversation (202 with its id); a refusal is a 409, as `workflowAction` says. */
    async sendReply(
      ctx: { status: number; body: unknown; state: UserState },
      conversation: ConversationRecord,
      messageId: string,
      content: PreparedReply,
    ): Promise<void> {
      const agentId = ctx.state.user.id;
      await workflowAction(
        () =>
          conversations.agentReply(
            conversation,
            { agentId, messageId, ...content },
            { updateId: `reply/${agentId}/${messageId}` },
          ),
        { messageId },
      ).catch((error: unknown) => {
        // Accepted by the conversation: it will be sent, which is what 202 says.
        if (!(error instanceof ActionNotConfirmedError && error.stage === 'accepted')) throw error;
      });
      ctx.status = 202;
      ctx.body = { messageId };
    },
  };
}

export type ReplySending = ReturnType<typeof createReplySending>;

/** A conversation the tenant owns: 404 when the id is malformed or exists nowhere, 403 when it is another tenant's. */
export async function ownedConversation(
  records: Pick<ConversationRecords, 'get'>,
  tenantId: string,
  conversationId: string,
): Promise<ConversationRecord> {
  const record = isConversationId(conversationId) ? await records.get(conversationId) : undefined;
  return ownedBy(record, tenantId, `conversation ${conversationId}`);
}

/** A conversation that is still open: a closed one answers 409 `conversation_closed` before the workflow is asked. */
export async function open(reading: Promise<ConversationRecord>): Promise<ConversationRecord> {
  const conversation = await reading;
  if (conversation.status === 'closed') throw conversationClosed();
  return conversation;
}

/** Seconds a client waits before sending an unconfirmed action again. */
const retryAfterSeconds = 5;

/** How the workflow words a refusal because the conversation has ended. */
const closedReason = /^The conversation is (already )?closed\.$/;

/**
 * An agent's action on the workflow, its refusals as 409s carrying the workflow's reason; one it did
 * not take up in time as 503 `action_not_confirmed`, with what to send it again with.
 */
export async function workflowAction<T>(run: () => Promise<T>, retryWith: Record<string, string>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof ActionNotConfirmedError && error.stage === 'sent')
      throw new AppError(
        503,
        'action_not_confirmed',
        `The conversation did not confirm this action within ${error.waitMs / 1000} s; it may still be applied: send it again with the same key to learn its outcome.`,
        [{ message: 'Send the request again with this key.', ...retryWith }],
        { 'Retry-After': String(retryAfterSeconds) },
      );
    if (error instanceof ConversationClosedError) throw conversationClosed();
    if (error instanceof ConversationActionRefusedError)
      throw closedReason.test(error.message) ? conversationClosed() : conflict(error.message);
    throw error;
  }
}
