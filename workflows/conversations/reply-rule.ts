import type { ConversationStatus } from './types.js';

/**
 * Why `agentId` may not send the customer a message, or null: only the agent who took the
 * conversation over (`holderId`, while the status is `agent`) may. The workflow's rule
 * (`Conversation.refuseAgentReply`), and the API's check before it fetches an agent's file.
 */
export function agentReplyRefusal(status: ConversationStatus, holderId: string | undefined, agentId: string): string | null {
  if (status === 'closed') return 'The conversation is closed.';
  if (status !== 'agent' || holderId !== agentId) return 'Take the conversation over before replying.';
  return null;
}
