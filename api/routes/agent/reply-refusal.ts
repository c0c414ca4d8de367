import type { ConversationRecord } from '#conversations/records.js';
import { AppError } from '#api/errors.js';

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
    'The customer wrote more than 24 hours ago, so only an approved template may be sent (POST /agent/conversations/{conversationId}/template-messages).',
  );
}
