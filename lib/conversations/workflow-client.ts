import { randomUUID } from 'node:crypto';
import {
  WorkflowExecutionAlreadyStartedError,
  WorkflowNotFoundError,
  WorkflowUpdateFailedError,
  WorkflowUpdateStage,
  type Client,
} from '@temporalio/client';
import { ApplicationFailure, type UpdateDefinition } from '@temporalio/common';
import { tagUnavailable } from '#platform/dependency-errors.js';
import { conversationWorkflowId } from '#workflows/ids.js';
import {
  agentLeftSignal,
  agentReplyUpdate,
  assignUpdate,
  closeUpdate,
  conversationClosedRefusal,
  customerMessageUpdate,
  handBackUpdate,
  offerSignal,
  requestHandoffSignal,
  takeOverUpdate,
  visitorMessageSignal,
  windowClosedSignal,
} from '#workflows/conversations/messages.js';
import type {
  Agent,
  AgentReply,
  ClosedBy,
  ConversationInput,
  ConversationRef,
  ConversationStatus,
  ConversationTimers,
  ConversationWorkflow,
  VisitorMessage,
} from '#workflows/conversations/types.js';
import { channelKey, conversationStatusKey, tenantIdKey } from '#workflows/search-attributes.js';

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
 * The workflow did not confirm an agent's action within the wait: `sent` when it has not accepted
 * it (no worker took it up; it may still be applied later), `accepted` when it has and the effect is
 * still running (it will be applied). A retry with the same update id attaches to the same update.
 */
export class ActionNotConfirmedError extends Error {
  constructor(
    readonly stage: 'sent' | 'accepted',
    readonly waitMs: number,
  ) {
    super(stage === 'sent' ? 'The conversation did not take the action up in time.' : 'The action is still being applied.');
    this.name = 'ActionNotConfirmedError';
  }
}

/** An action's update id: a retry with the same one attaches to the same update (a new one when absent). */
export interface ActionOptions {
  updateId?: string;
}

/**
 * Talks to conversation workflows: starts them, hands them customers' messages (signals, durable
 * once this resolves, with or without a running worker) and agents' actions (updates, which answer
 * whether the workflow accepted them). A Temporal that cannot be reached fails a call with a
 * DependencyUnavailableError.
 */
export function createConversationClient(client: Client, taskQueue: string, { actionWaitMs = 15_000 } = {}) {
  const handle = (ref: Pick<ConversationRef, 'tenantId' | 'conversationId'>) =>
    client.workflow.getHandle<ConversationWorkflow>(conversationWorkflowId(ref.tenantId, ref.conversationId));

  /**
   * Runs an update of the conversation's workflow under a deadline (F15 of the 2026-11 review):
   * first until the workflow accepts it (validators ran), then until its handler finished.
   */
  async function act<Ret, Args extends [unknown]>(
    ref: Pick<ConversationRef, 'tenantId' | 'conversationId'>,
    definition: UpdateDefinition<Ret, Args>,
    args: Args,
    { updateId = randomUUID() }: ActionOptions = {},
  ): Promise<Ret> {
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), actionWaitMs);
    const within = async <T>(stage: ActionNotConfirmedError['stage'], call: () => Promise<T>): Promise<T> => {
      try {
        return await client.withAbortSignal(deadline.signal, call);
      } catch (error) {
        if (deadline.signal.aborted) throw new ActionNotConfirmedError(stage, actionWaitMs);
        throw error;
      }
    };
    try {
      return await update(async () => {
        const accepted = await within('sent', () =>
          handle(ref).startUpdate(definition, {
            args,
            updateId,
            waitForStage: WorkflowUpdateStage.ACCEPTED,
          }),
        );
        return await within('accepted', () => accepted.result());
      });
    } finally {
      clearTimeout(timer);
    }
  }

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
      await client.workflow.start<ConversationWorkflow>('conversationWorkflow', startOptions(conversation, timers, options));
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
      await client.workflow.signalWithStart<ConversationWorkflow, [VisitorMessage]>('conversationWorkflow', {
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
        await client.workflow.signalWithStart<ConversationWorkflow, [VisitorMessage]>('conversationWorkflow', {
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

    /**
     * The platform reported one of the conversation's messages refused for the closed window: its
     * workflow decides whether a person must take it (`windowClosedSignal`). A conversation whose
     * workflow has ended needs nothing.
     */
    async reportWindowClosed(ref: ConversationRef, messageId: string): Promise<void> {
      try {
        await handle(ref).signal(windowClosedSignal, { messageId });
      } catch (error) {
        if (!(error instanceof WorkflowNotFoundError)) throw error;
      }
    },

    /** Running conversations waiting for an agent, of every tenant: Temporal's visibility counts them (the metrics). */
    async countWaitingForAgent(): Promise<number> {
      const waiting: ConversationStatus = 'waiting_for_agent';
      const { count } = await client.workflow.count(
        `WorkflowType = 'conversationWorkflow' AND ExecutionStatus = 'Running' AND ${conversationStatusKey.name} = '${waiting}'`,
      );
      return count;
    },

    /**
     * Agents' actions: each resolves once the workflow applied it, or fails with an
     * ActionNotConfirmedError once the wait is over; the same `updateId` again attaches to it.
     */
    takeOver: (ref: ConversationRef, agent: Agent, options?: ActionOptions): Promise<ConversationStatus> =>
      act(ref, takeOverUpdate, [agent], options),

    agentReply: (ref: ConversationRef, reply: AgentReply, options?: ActionOptions): Promise<void> =>
      act(ref, agentReplyUpdate, [reply], options),

    handBack: (ref: ConversationRef, agentId: string, options?: ActionOptions): Promise<ConversationStatus> =>
      act(ref, handBackUpdate, [{ agentId }], options),

    close: (ref: ConversationRef, by: ClosedBy, options?: ActionOptions): Promise<ConversationStatus> =>
      act(ref, closeUpdate, [{ by }], options),

    /** Assigns the conversation to `agent` (or no one), within `teamId` when given; resolves once recorded. */
    assign: (
      ref: ConversationRef,
      assignment: { agent: Agent | null; teamId?: string | null; by: Agent },
      options?: ActionOptions,
    ): Promise<void> => act(ref, assignUpdate, [assignment], options),

    /**
     * Nudges for the conversation's assignment (`offer`: an agent with room asks for it; `agentLeft`: the
     * agent it was given went away). Its workflow decides; one that has ended needs nothing.
     */
    async nudgeAssignment(ref: ConversationRef, nudge: { kind: 'offer' | 'agentLeft'; agentId: string }): Promise<void> {
      try {
        await handle(ref).signal(nudge.kind === 'offer' ? offerSignal : agentLeftSignal, { agentId: nudge.agentId });
      } catch (error) {
        if (!(error instanceof WorkflowNotFoundError)) throw error;
      }
    },
  });
}

export type ConversationClient = ReturnType<typeof createConversationClient>;

function isClosedRefusal(cause: unknown): boolean {
  return cause instanceof ApplicationFailure && cause.type === conversationClosedRefusal;
}
