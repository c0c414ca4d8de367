import {
  WorkflowExecutionAlreadyStartedError,
  WorkflowNotFoundError,
  WorkflowUpdateFailedError,
  type Client,
} from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { tagUnavailable } from '#platform/dependency-errors.js';
import { conversationWorkflowId } from '#workflows/ids.js';
import {
  agentReplyUpdate,
  closeUpdate,
  conversationClosedRefusal,
  customerMessageUpdate,
  handBackUpdate,
  requestHandoffSignal,
  takeOverUpdate,
  visitorMessageSignal,
} from '#workflows/conversation/messages.js';
import type {
  Agent,
  ClosedBy,
  ConversationInput,
  ConversationRef,
  ConversationStatus,
  ConversationTimers,
  VisitorMessage,
} from '#workflows/conversation/types.js';
import { channelKey, conversationStatusKey, tenantIdKey } from '#workflows/search-attributes.js';
import type { conversationWorkflow } from '#workflows/conversation/workflow.js';

/** The conversation has ended: its workflow no longer takes messages. */
export class ConversationClosedError extends Error {
  constructor() {
    super('The conversation is closed.');
    this.name = 'ConversationClosedError';
  }
}

/**
 * How long a customer's message to a running conversation may wait for its workflow to take it (a
 * worker to run the update): past it, the call fails as Temporal unavailable, the webhook answers
 * 503 and the platform delivers the message again.
 */
const customerMessageAcceptMs = 5_000;

/** The workflow refused an agent's action; the message says why (another agent has it, it is closed…). */
export class ConversationActionRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConversationActionRefusedError';
  }
}

/**
 * Talks to conversation workflows: starts them, hands them customers' messages (signals, durable
 * once this resolves, with or without a running worker) and agents' actions (updates, which answer
 * whether the workflow accepted them). A Temporal that cannot be reached fails a call with a
 * DependencyUnavailableError.
 */
export function createConversationClient(client: Client, taskQueue: string) {
  const handle = (ref: Pick<ConversationRef, 'tenantId' | 'conversationId'>) =>
    client.workflow.getHandle<typeof conversationWorkflow>(conversationWorkflowId(ref.tenantId, ref.conversationId));

  async function update<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (error instanceof WorkflowNotFoundError) throw new ConversationClosedError();
      if (error instanceof WorkflowUpdateFailedError && error.cause instanceof ApplicationFailure)
        throw new ConversationActionRefusedError(error.cause.message);
      throw error;
    }
  }

  const startOptions = (conversation: ConversationRef, timers: ConversationTimers, options: { maxHistoryEvents?: number }) => ({
    workflowId: conversationWorkflowId(conversation.tenantId, conversation.conversationId),
    taskQueue,
    args: [{ conversation, timers, ...options }] as [ConversationInput],
    typedSearchAttributes: [
      { key: tenantIdKey, value: conversation.tenantId },
      { key: channelKey, value: conversation.channel },
      { key: conversationStatusKey, value: 'ai' as ConversationStatus },
    ],
  });

  return tagUnavailable('temporal', {
    async start(
      conversation: ConversationRef,
      timers: ConversationTimers,
      options: { maxHistoryEvents?: number } = {},
    ): Promise<void> {
      await client.workflow.start<typeof conversationWorkflow>(
        'conversationWorkflow',
        startOptions(conversation, timers, options),
      );
    },

    /**
     * A customer's message on the messaging channel: starts the conversation's workflow with it when
     * none runs yet (one call, so a first message can never be separated from its conversation).
     */
    async receiveCustomerMessage(
      conversation: ConversationRef,
      timers: ConversationTimers,
      message: VisitorMessage,
    ): Promise<void> {
      await client.workflow.signalWithStart<typeof conversationWorkflow, [VisitorMessage]>('conversationWorkflow', {
        ...startOptions(conversation, timers, {}),
        signal: visitorMessageSignal,
        signalArgs: [message],
      });
    },

    /**
     * A customer's message on the messaging channel to a conversation already under way: an update
     * its workflow refuses once it has closed, even while its record still reads open, so that no
     * message is dropped into a closing conversation. True once the workflow has it; false when
     * the conversation is over (closed, or its workflow ended), and the message belongs to a new one.
     */
    async offerCustomerMessage(
      conversation: ConversationRef,
      timers: ConversationTimers,
      message: VisitorMessage,
    ): Promise<boolean> {
      try {
        await client.withDeadline(Date.now() + customerMessageAcceptMs, () =>
          handle(conversation).executeUpdate(customerMessageUpdate, {
            args: [message],
            updateId: `customer-message/${message.messageId}`,
          }),
        );
        return true;
      } catch (error) {
        if (!(error instanceof WorkflowUpdateFailedError) && !(error instanceof WorkflowNotFoundError)) throw error;
        if (error instanceof WorkflowUpdateFailedError && isClosedRefusal(error.cause)) return false;
        // Not found: not started yet (a racing delivery made the conversation) or ended. Refused for
        // another reason (a worker still without this update's handler): taken in as before, by signal.
      }
      try {
        await client.workflow.signalWithStart<typeof conversationWorkflow, [VisitorMessage]>('conversationWorkflow', {
          ...startOptions(conversation, timers, {}),
          // A conversation whose workflow has ended is not started again under its id.
          workflowIdReusePolicy: 'REJECT_DUPLICATE',
          signal: visitorMessageSignal,
          signalArgs: [message],
        });
        return true;
      } catch (error) {
        if (error instanceof WorkflowExecutionAlreadyStartedError) return false;
        throw error;
      }
    },

    async sendVisitorMessage(ref: ConversationRef, message: VisitorMessage): Promise<void> {
      await update(() => handle(ref).signal(visitorMessageSignal, message));
    },

    async requestHandoff(ref: ConversationRef): Promise<void> {
      await update(() => handle(ref).signal(requestHandoffSignal, { by: 'visitor' }));
    },

    takeOver: (ref: ConversationRef, agent: Agent): Promise<ConversationStatus> =>
      update(() => handle(ref).executeUpdate(takeOverUpdate, { args: [agent] })),

    agentReply: (ref: ConversationRef, reply: { agentId: string; messageId: string; text: string }): Promise<void> =>
      update(() => handle(ref).executeUpdate(agentReplyUpdate, { args: [reply] })),

    handBack: (ref: ConversationRef, agentId: string): Promise<ConversationStatus> =>
      update(() => handle(ref).executeUpdate(handBackUpdate, { args: [{ agentId }] })),

    close: (ref: ConversationRef, by: ClosedBy): Promise<ConversationStatus> =>
      update(() => handle(ref).executeUpdate(closeUpdate, { args: [{ by }] })),
  });
}

export type ConversationClient = ReturnType<typeof createConversationClient>;

function isClosedRefusal(cause: unknown): boolean {
  return cause instanceof ApplicationFailure && cause.type === conversationClosedRefusal;
}
