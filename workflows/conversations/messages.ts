import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type {
  Agent,
  AgentReply,
  ClosedBy,
  ConversationSnapshot,
  ConversationStatus,
  HandoffBy,
  VisitorMessage,
} from './types.js';

// The string names are part of the wire protocol: never rename them once deployed.

/** A customer's message (widget or messaging channel); fire-and-forget, deduplicated by message id. */
export const visitorMessageSignal = defineSignal<[VisitorMessage]>('visitorMessage');

/**
 * A customer's message on the messaging channel into a conversation already under way: an update,
 * so that a conversation that has closed can say so (refused with `conversationClosedRefusal`) and
 * the message goes to the customer's next conversation instead of being dropped. Answers `taken`,
 * or `duplicate` for a message id seen before.
 */
export const customerMessageUpdate = defineUpdate<'taken' | 'duplicate', [VisitorMessage]>('customerMessage');

/** The `ApplicationFailure` type of `customerMessageUpdate`'s refusal: the conversation has closed. */
export const conversationClosedRefusal = 'conversation_closed';

/** The customer asks for a person (a button, not a typed question, which the reply activity detects). */
export const requestHandoffSignal = defineSignal<[{ by: HandoffBy }]>('requestHandoff');

/**
 * The platform refused a message of ours because the 24-hour window had closed (131047 in a later
 * `failed` status): the conversation needs a person. Its rules decide: an AI conversation moves to
 * `waiting_for_agent`; one waiting, with an agent, or closed stays as it is.
 */
export const windowClosedSignal = defineSignal<[{ messageId: string }]>('windowClosed');

/** An agent takes the conversation over; refused when it is closed or another agent has it. */
export const takeOverUpdate = defineUpdate<ConversationStatus, [Agent]>('takeOver');

/** An agent's reply; refused unless this agent has taken the conversation over. */
export const agentReplyUpdate = defineUpdate<void, [AgentReply]>('agentReply');

/** The agent gives the conversation back to the AI. */
export const handBackUpdate = defineUpdate<ConversationStatus, [{ agentId: string }]>('handBack');

/**
 * A person assigns the conversation to an agent (or no one), within a team (absent: its team stays);
 * refused when it is closed, or to no one while an agent answers it. Answers once recorded.
 */
export const assignUpdate = defineUpdate<void, [{ agent: Agent | null; teamId?: string | null; by: Agent }]>('assign');

/** An available agent with room asks for a waiting conversation that nobody has (the inbox's offers). */
export const offerSignal = defineSignal<[{ agentId: string }]>('offer');

/** The agent went away or offline: a waiting conversation given to them goes to the next. */
export const agentLeftSignal = defineSignal<[{ agentId: string }]>('agentLeft');

/** Ends the conversation; closing a closed one is refused. */
export const closeUpdate = defineUpdate<ConversationStatus, [{ by: ClosedBy }]>('close');

export const conversationStateQuery = defineQuery<ConversationSnapshot>('conversationState');
