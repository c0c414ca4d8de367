import {
  ActivityFailure,
  ApplicationFailure,
  allHandlersFinished,
  condition,
  continueAsNew,
  log,
  patched,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '#activities/index.js';
import { conversationStatusKey } from '../search-attributes.js';
import {
  agentLeftSignal,
  agentReplyUpdate,
  assignUpdate,
  closeUpdate,
  conversationClosedRefusal,
  conversationStateQuery,
  customerMessageUpdate,
  handBackUpdate,
  offerSignal,
  requestHandoffSignal,
  takeOverUpdate,
  visitorMessageSignal,
  windowClosedSignal,
} from './messages.js';
import { Conversation } from './state.js';
import type { ConversationInput, ConversationRef, ConversationWorkflow, QueuedEffect } from './types.js';

// Answering a question may stream from a model for a while: it heartbeats, and gives up after a few
// tries so the customer hears back instead of waiting on an outage.
const { answerVisitorMessage } = proxyActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  heartbeatTimeout: '20 seconds',
  retry: { initialInterval: '500 milliseconds', backoffCoefficient: 2, maximumAttempts: 3 },
});

// Transcript and status writes are small and must happen: retried until Redis is back. They run as
// local activities, in the worker that runs the workflow, so each costs the Temporal server no task
// of its own: under load that is what keeps the server free to take in customers' messages.
const { recordVisitorMessage, recordConversationStatus, recordAgentMessage, assignConversation, trackSla } =
  proxyLocalActivities<Activities>({
    startToCloseTimeout: '30 seconds',
    scheduleToCloseTimeout: '1 day',
    retry: { initialInterval: '500 milliseconds', backoffCoefficient: 2, maximumInterval: '30 seconds' },
  });

// Sending to the messaging platform (a local activity too, for the same reason): throttling and
// server errors back off (1 s doubling, at most 30 s between tries), as does a run that finds
// another still delivering; each run stops sending 15 s before this timeout; whatever still has
// not gone out is tried again after the next event.
const { deliverMessages } = proxyLocalActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 8 },
});

// A read receipt (with "typing…" while the AI writes) is a courtesy: a few quick tries, then the conversation goes on.
const { markCustomerMessageRead } = proxyLocalActivities<Activities>({
  startToCloseTimeout: '15 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumAttempts: 3 },
});

/** Continue as new well before Temporal's own limits, even if it has not suggested it yet. */
const defaultMaxHistoryEvents = 2_000;

/**
 * One conversation, from its first message to closing, shared by the widget and the messaging
 * channel. Messages and agent actions arrive as signals and updates; the rules live in
 * `Conversation`; side effects (answers, transcript, status) run as activities one at a time, in
 * the order they were taken in. The transcript lives in Redis, so the history stays small; the
 * workflow continues as new before it grows large.
 */
export async function conversationWorkflow(input: ConversationInput): Promise<void> {
  const { conversation: ref, timers } = input;
  const conversation = input.snapshot
    ? new Conversation(input.snapshot)
    : Conversation.start(Date.now(), { assigning: patched(teamAssignment) });

  setHandler(visitorMessageSignal, (message) => {
    // A signal cannot be refused: one after closing is dropped, and said so (the messaging channel uses the update below).
    if (!conversation.receive(message, Date.now()) && conversation.closed)
      log.warn('A message arrived after the conversation closed', { messageId: message.messageId });
  });
  setHandler(
    customerMessageUpdate,
    (message): 'taken' | 'duplicate' => (conversation.receive(message, Date.now()) ? 'taken' : 'duplicate'),
    {
      validator: (_message) => {
        if (conversation.closed)
          throw ApplicationFailure.create({
            type: conversationClosedRefusal,
            message: 'The conversation is closed.',
            nonRetryable: true,
          });
      },
    },
  );
  setHandler(requestHandoffSignal, ({ by }) => void conversation.requestHandoff(by, Date.now()));
  setHandler(windowClosedSignal, () => {
    if (patched(windowClosedHandoff)) conversation.windowClosed(Date.now());
  });
  setHandler(
    takeOverUpdate,
    async (agent) => {
      await effectDone(conversation, conversation.takeOver(agent, Date.now()));
      return conversation.status;
    },
    { validator: (agent) => refuse(conversation.refuseTakeOver(agent)) },
  );
  setHandler(agentReplyUpdate, async (reply) => effectDone(conversation, conversation.agentReply(reply, Date.now())), {
    validator: (reply) => refuse(conversation.refuseAgentReply(reply.agentId)),
  });
  setHandler(
    handBackUpdate,
    async () => {
      await effectDone(conversation, conversation.handBack(Date.now()));
      return conversation.status;
    },
    { validator: ({ agentId }) => refuse(conversation.refuseHandBack(agentId)) },
  );
  setHandler(
    closeUpdate,
    async ({ by }) => {
      await effectDone(conversation, conversation.close(by, Date.now()));
      return conversation.status;
    },
    { validator: (_input) => refuse(conversation.refuseClose()) },
  );
  setHandler(
    assignUpdate,
    async ({ agent, teamId, by }) => effectDone(conversation, conversation.assign(agent, teamId, by, Date.now())),
    { validator: ({ agent }) => refuse(conversation.refuseAssign(agent)) },
  );
  setHandler(offerSignal, ({ agentId }) => void conversation.offer(agentId));
  setHandler(agentLeftSignal, ({ agentId }) => void conversation.agentLeft(agentId));
  setHandler(conversationStateQuery, () => conversation.snapshot());

  for (;;) {
    const effect = conversation.nextEffect();
    if (effect) {
      await carryOut(ref, conversation, effect);
      if (ref.channel === 'messaging') await deliver(ref, conversation);
      conversation.completeEffect();
      continue;
    }
    if (conversation.closed) break;

    const info = workflowInfo();
    if (info.continueAsNewSuggested || info.historyLength > (input.maxHistoryEvents ?? defaultMaxHistoryEvents)) {
      // Updates wait for their effects, and nothing is pending now: they all finish at once.
      await condition(allHandlersFinished);
      if (!conversation.nextEffect())
        await continueAsNew<typeof conversationWorkflow>({ ...input, snapshot: conversation.snapshot() });
      continue;
    }

    const deadline = conversation.nextDeadline(timers)!;
    const woken = await condition(() => conversation.nextEffect() !== undefined, Math.max(1, deadline - Date.now()));
    if (!woken) conversation.fireDueTimer(Date.now(), timers);
  }
  await condition(allHandlersFinished);
}

// The signature its clients are given (`types.ts`).
conversationWorkflow satisfies ConversationWorkflow;

async function carryOut(ref: ConversationRef, conversation: Conversation, effect: QueuedEffect): Promise<void> {
  switch (effect.kind) {
    case 'visitorMessage': {
      if (conversation.status !== 'ai') {
        await recordVisitorMessage({ conversation: ref, message: effect.message, status: conversation.status, notice: null });
        return;
      }
      if (ref.channel === 'messaging' && patched(markReadOnAnswer)) await markRead(ref, effect.message.messageId, true);
      try {
        const result = await answerVisitorMessage({ conversation: ref, message: effect.message });
        if (result.handoffRequested)
          conversation.requestHandoff(result.handoffBy ?? 'visitor', Date.now(), { first: true, announced: true });
        else conversation.noteAnswer(result.outcome, Date.now());
      } catch (error) {
        if (!(error instanceof ActivityFailure)) throw error;
        // The answer failed for good (an outage outlasted the retries): say so instead of going quiet.
        await recordVisitorMessage({
          conversation: ref,
          message: effect.message,
          status: conversation.status,
          notice: 'answerFailed',
        });
      }
      return;
    }
    case 'status':
      await recordConversationStatus({
        conversation: ref,
        status: effect.status,
        notice: effect.notice,
        agent: effect.agent,
        effectId: effect.id,
        // The facts of a close, for its outcome (absent from other changes, so their input is as it always was), as
        // they are now: an answer still being written when the close was asked for has been noted since.
        ...(effect.closing ? { closing: conversation.closingFacts(effect.closing.closedBy) } : {}),
      });
      upsertSearchAttributes([{ key: conversationStatusKey, value: effect.status }]);
      return;
    case 'assign': {
      const result = await assignConversation({
        conversation: ref,
        step: effect.step,
        handoffBy: conversation.handoffBy,
        effectId: effect.id,
        ...(conversation.assignment ? { previous: conversation.assignment } : {}),
      });
      conversation.noteAssignment(result, Date.now());
      return;
    }
    case 'sla':
      conversation.noteSla(await trackSla({ conversation: ref, change: effect.change, clocks: conversation.slaClocks ?? {} }));
      return;
    case 'agentMessage':
      await recordAgentMessage({
        conversation: ref,
        agent: effect.agent,
        messageId: effect.messageId,
        text: effect.text,
        // A template or a file: absent from plain replies, so their activity input is as it always was.
        ...(effect.template ? { template: effect.template } : {}),
        ...(effect.attachment ? { attachment: effect.attachment } : {}),
        ...(effect.handedOffAt !== undefined ? { handedOffAt: effect.handedOffAt } : {}),
      });
      // The agent answers the customer's latest message: it shows as read.
      if (ref.channel === 'messaging' && patched(markReadOnAnswer)) await markRead(ref, undefined, false);
      return;
  }
}

/**
 * The messaging channel's outbound side: what the effect wrote goes out to the customer. A run
 * stops at its time budget with `more` left; the next run, right away, takes it up.
 */
async function deliver(ref: ConversationRef, conversation: Conversation): Promise<void> {
  try {
    let result = await deliverMessages({ conversation: ref });
    // Older runs' results carry no `more`; the patch keeps their histories as they were recorded.
    while (result.more && patched('deliver-in-budgeted-runs')) result = await deliverMessages({ conversation: ref });
    // The platform refused a message for the closed window: a person takes it from here (older results carry no flag).
    if (result.windowClosed && patched(windowClosedHandoff)) conversation.windowClosed(Date.now());
  } catch (error) {
    // An outage that outlasted the retries: the messages stay unsent and go out after the next event.
    if (!(error instanceof ActivityFailure)) throw error;
  }
}

/** Patches: a window found closed hands the conversation to a person; customers' messages are marked read when answered. */
const windowClosedHandoff = 'window-closed-handoff';
/** Conversations started with this code route their handoffs to teams and assign them (older ones never do). */
const teamAssignment = 'team-assignment';
const markReadOnAnswer = 'mark-read-on-answer';

/** Marks the customer's message (`messageId`, else their latest) read; a receipt that fails for good is let go. */
async function markRead(ref: ConversationRef, messageId: string | undefined, typing: boolean): Promise<void> {
  try {
    await markCustomerMessageRead({ conversation: ref, ...(messageId ? { messageId } : {}), typing });
  } catch (error) {
    if (!(error instanceof ActivityFailure)) throw error;
  }
}

function effectDone(conversation: Conversation, effectId: number): Promise<void> {
  return condition(() => conversation.isDone(effectId));
}

/** An update validator's answer: throwing refuses the update with this reason. */
function refuse(reason: string | null): void {
  if (reason) throw ApplicationFailure.create({ type: 'update_refused', message: reason, nonRetryable: true });
}
