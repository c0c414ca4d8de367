import type { ConversationRecord } from '#conversations/records.js';
import { agentReplyRefusal } from '#workflows/conversations/reply-rule.js';
import { AppError, conflict, conversationClosed } from '#api/errors.js';

/**
 * Why an agent's reply may not be sent before the workflow is even asked, or null. On the messaging
 * channel free-form messages are only allowed within 24 hours of the customer's last message; after
 * that only approved templates may be sent (`POST …/template-messages`). An unknown
 * window (the customer never wrote) counts as closed: the platform would refuse the message anyway.
 */
export function replyRefusal(
  conversation: Pick<ConversationRecord, 'channel'>,
  windowOpenUntil: Date | undefined,
  now: Date,
): AppError | null {
  if (conversation.channel !== 'messaging') return null;
  if (windowOpenUntil && windowOpenUntil.getTime() > now.getTime()) return null;
  return new AppError(
    409,
    'window_closed',
    'The reply window has closed (the customer wrote more than 24 hours ago, or the platform refused a message for it), so only an approved template may be sent (POST /agent/conversations/{conversationId}/template-messages).',
  );
}

/**
 * Why `agentId` may not send on this conversation as its record reads, or null: the workflow's rule
 * (`agentReplyRefusal`: only the agent who took it over), applied before costly work such as
 * fetching and uploading a file. The workflow checks again when asked (the record follows it a
 * moment behind). A record that names no agent while with one (written before agent ids were kept)
 * is left to the workflow.
 */
export function agentRefusal(conversation: Pick<ConversationRecord, 'status' | 'agentId'>, agentId: string): AppError | null {
  if (conversation.status === 'agent' && conversation.agentId === undefined) return null;
  const reason = agentReplyRefusal(conversation.status, conversation.agentId, agentId);
  if (!reason) return null;
  return conversation.status === 'closed' ? conversationClosed() : conflict(reason);
}
