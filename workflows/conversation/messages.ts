import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { Agent, ClosedBy, ConversationSnapshot, ConversationStatus, HandoffBy, VisitorMessage } from './types.js';

// The string names are part of the wire protocol: never rename them once deployed.

/** A customer's message (widget or messaging channel); fire-and-forget, deduplicated by message id. */
export const visitorMessageSignal = defineSignal<[VisitorMessage]>('visitorMessage');

/** The customer asks for a person (a button, not a typed question, which the reply activity detects). */
export const requestHandoffSignal = defineSignal<[{ by: HandoffBy }]>('requestHandoff');

/** An agent takes the conversation over; refused when it is closed or another agent has it. */
export const takeOverUpdate = defineUpdate<ConversationStatus, [Agent]>('takeOver');

/** An agent's reply; refused unless this agent has taken the conversation over. */
export const agentReplyUpdate = defineUpdate<void, [{ agentId: string; messageId: string; text: string }]>('agentReply');

/** The agent gives the conversation back to the AI. */
export const handBackUpdate = defineUpdate<ConversationStatus, [{ agentId: string }]>('handBack');

/** Ends the conversation; closing a closed one is refused. */
export const closeUpdate = defineUpdate<ConversationStatus, [{ by: ClosedBy }]>('close');

export const conversationStateQuery = defineQuery<ConversationSnapshot>('conversationState');
