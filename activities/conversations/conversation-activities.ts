import { Context } from '@temporalio/activity';
import type { AnswerQuestion, AnsweredQuestion } from '#answering/answer-question.js';
import { asksForHuman } from '#answering/handoff-intent.js';
import { stringsFor } from '#answering/locales.js';
import type { AnswerBudget } from '#conversations/answer-budget.js';
import type { ConversationEvent, EventPublisher } from '#conversations/events.js';
import type { ConversationRecords } from '#conversations/records.js';
import type { Transcript } from '#conversations/transcript.js';
import type { SearchChanges } from '#conversations/search/changes.js';
import { citedSources, type ConversationCounts } from '#insights/conversation-counts.js';
import type { ChannelState } from '#messaging/channel-state.js';
import { askAtClose, askMessage, feedbackAsks, type FeedbackAsk } from '#messaging/feedback-asks.js';
import type {
  Agent,
  AgentReplyExtras,
  ClosingFacts,
  ConversationRef,
  ConversationStatus,
  StatusNotice,
  VisitorMessage,
  VisitorMessageResult,
} from '#workflows/conversations/types.js';
import { agentMessage, aiAnswerMessage, aiNoticeMessage, systemMessage, visitorMessage } from '#conversations/messages.js';
import { closedByNotice, noticeText } from '#conversations/notices.js';
import { createTokenStream } from '#conversations/token-stream.js';
import type { ChatMessage } from '#conversations/chat-message.js';
import type { EventEmitter } from '#outbound-events/emitter.js';
import type { RecordGap } from '#insights/content-gaps/recorder.js';
import { conversationStatusChanged } from '#outbound-events/facts.js';
import type { WaitedMs } from '#conversations/office-time.js';
import { messageRecorder } from './record-message.js';

export interface ConversationActivityDeps {
  records: Pick<ConversationRecords, 'setStatus'>;
  transcript: Pick<Transcript, 'append'>;
  events: EventPublisher;
  answerQuestion: AnswerQuestion;
  /**
   * Each operator's AI answers per UTC day. The API counts a widget message when it accepts it (and
   * refuses it past the budget); a messaging customer cannot be refused, so theirs are counted here.
   */
  answerBudget: Pick<AnswerBudget, 'spend'>;
  /** The tenant's event endpoints hear of each message recorded and each handoff, assignment and closing. */
  outboundEvents?: Pick<EventEmitter, 'emit'>;
  /** The operator's insight counters: started, answers and cited sources, first replies, outcomes. */
  counts: ConversationCounts;
  /** The messaging channel's 24-hour window: a feedback ask goes out only while it is open. */
  channel: Pick<ChannelState, 'windowOpenUntil'>;
  metrics?: ConversationMetrics;
  /** How long the customer waited for the first agent reply, as the reports count it (within the team's office hours). */
  waitedMs?: WaitedMs;
  /** Keeps each question the AI could not answer as a content gap (never fails the answer). */
  recordGap?: RecordGap;
  /** Marks the conversation for the search index with each message recorded (docs/agent-inbox.md, "Conversation search"). */
  searchChanges?: Pick<SearchChanges, 'markChanged'>;
  now?: () => Date;
}

/** What the conversation activities count (the worker's metrics). */
export interface ConversationMetrics {
  /** An answer was written, or "I don't know" said: by which generator, and how long retrieving and writing took. */
  answered(answer: Pick<AnsweredQuestion, 'outcome' | 'generator'>, seconds: number): void;
  /** A conversation was handed to a person: it now waits for an agent. */
  handedOff(channel: ConversationRef['channel']): void;
}

function isAsk(value: string): value is FeedbackAsk {
  return (feedbackAsks as readonly string[]).includes(value);
}

const uncounted: ConversationMetrics = { answered: () => undefined, handedOff: () => undefined };

/**
 * The conversation workflow's side effects: each keeps the transcript (Redis) and tells followers
 * (conversation events). Ids of the messages they write derive from the workflow's input, so a
 * retried activity writes the same message again, which the transcript reads once.
 */
export function createConversationActivities({
  records,
  transcript,
  events,
  answerQuestion,
  answerBudget,
  outboundEvents,
  counts,
  channel,
  metrics = uncounted,
  recordGap,
  searchChanges,
  waitedMs = async (_ref, from, to) => Math.max(0, to.getTime() - from.getTime()),
  now = () => new Date(),
}: ConversationActivityDeps) {
  const publish = (ref: ConversationRef, event: ConversationEvent) => events.publish(ref.conversationId, event);

  const record = messageRecorder({
    transcript,
    events,
    ...(searchChanges ? { searchChanges } : {}),
    ...(outboundEvents ? { outboundEvents } : {}),
  });

  return {
    /** Takes in a visitor's message while the AI has the conversation, and answers it (streaming). */
    async answerVisitorMessage(input: { conversation: ConversationRef; message: VisitorMessage }): Promise<VisitorMessageResult> {
      const { conversation: ref, message } = input;
      const { locale } = ref;
      const replyTo = message.messageId;
      const reply = { id: `${message.messageId}.reply`, replyTo, channel: ref.channel, locale };
      await record(ref, visitorMessage(message.messageId, message.text, now().toISOString()));

      const context = Context.current();
      const tokens = createTokenStream(
        (event) => (ref.channel === 'widget' ? publish(ref, event) : Promise.resolve()),
        replyTo,
        () => context.heartbeat(),
      );
      // A retry starts the answer over: followers drop what an earlier attempt streamed.
      if (context.info.attempt > 1) tokens.reset();

      // Past the operator's budget, a messaging customer is handed to a person rather than left unanswered.
      const askedForPerson = asksForHuman(message.text, locale);
      if (askedForPerson || (ref.channel === 'messaging' && !(await answerBudget.spend(ref.operatorId)).allowed)) {
        const text = stringsFor(locale).handoffStarted;
        tokens.token(text);
        await tokens.flush();
        await finish(ref, aiNoticeMessage({ ...reply, createdAt: now().toISOString() }, text, 'handoff'), 'waiting_for_agent');
        return { handoffRequested: true, handoffBy: askedForPerson ? 'visitor' : 'ai' };
      }

      const started = performance.now();
      const answer = await answerQuestion(
        { tenantId: ref.tenantId, knowledgeBaseId: ref.knowledgeBaseId, question: message.text, locale },
        tokens,
      );
      metrics.answered(answer, (performance.now() - started) / 1000);
      await tokens.flush();
      context.log.info('answered', { outcome: answer.outcome, generator: answer.generator, citations: answer.citations.length });
      await publish(ref, { type: 'citations', replyTo, citations: answer.citations });
      await finish(ref, aiAnswerMessage({ ...reply, createdAt: now().toISOString() }, answer), 'ai');
      await counts.answered(ref, reply.id, answer.outcome, citedSources(ref, answer.citations));
      if (answer.outcome === 'unknown')
        await recordGap?.({
          ...ref,
          messageId: reply.id,
          question: message.text,
          locale,
          reason: 'unknown',
          closestSources: answer.closestSources ?? [],
        });
      return { handoffRequested: false, outcome: answer.outcome };
    },

    /**
     * Takes in a visitor's message that the AI does not answer (a person has the conversation, or the
     * answer failed for good, `notice` then says so).
     */
    async recordVisitorMessage(input: {
      conversation: ConversationRef;
      message: VisitorMessage;
      status: ConversationStatus;
      notice: 'answerFailed' | null;
    }): Promise<void> {
      const { conversation: ref, message } = input;
      await record(ref, visitorMessage(message.messageId, message.text, now().toISOString()));
      const { locale } = ref;
      const reply =
        input.notice === 'answerFailed'
          ? aiNoticeMessage(
              {
                id: `${message.messageId}.reply`,
                replyTo: message.messageId,
                channel: ref.channel,
                locale,
                createdAt: now().toISOString(),
              },
              stringsFor(locale).answerFailed,
              'failed',
            )
          : null;
      if (reply) await record(ref, reply);
      await publish(ref, { type: 'done', replyTo: message.messageId, message: reply, status: input.status });
    },

    /** Records a change of status, with the operator's notice of it in the transcript. */
    async recordConversationStatus(input: {
      conversation: ConversationRef;
      status: ConversationStatus;
      notice: StatusNotice | null;
      agent: Agent | null;
      /** The workflow's number for this change, unique within the conversation: the notice's id. */
      effectId: number;
      /** On closing: what decides the outcome (absent in histories recorded before outcomes were kept). */
      closing?: ClosingFacts;
    }): Promise<void> {
      const { conversation: ref } = input;
      const closedBy = input.status === 'closed' ? (input.closing?.closedBy ?? closedByNotice[input.notice ?? '']) : undefined;
      await records.setStatus(ref, input.status, input.agent?.name ?? null, input.agent?.agentId ?? null, closedBy);
      if (input.notice) {
        const text = noticeText(input.notice, ref.locale, input.agent);
        await record(ref, systemMessage(`notice-${input.effectId}`, text, now().toISOString()));
      }
      if (input.closing) await closeWithOutcome(ref, input.closing);
      await publish(ref, {
        type: 'status',
        status: input.status,
        agentName: input.agent?.name ?? null,
        ...(closedBy ? { closedBy } : {}),
      });
      const event = conversationStatusChanged(ref, {
        status: input.status,
        effectId: input.effectId,
        agent: input.agent,
        reminder: input.notice === 'stillWaitingForAgent',
      });
      if (event) await outboundEvents?.emit(ref.tenantId, event);
      // Counted once the attempt has done everything (a retried one counts once); a reminder to a
      // customer still waiting is no new handoff.
      if (input.status === 'waiting_for_agent' && input.notice !== 'stillWaitingForAgent') metrics.handedOff(ref.channel);
    },

    async recordAgentMessage(
      input: {
        conversation: ConversationRef;
        agent: Agent;
        messageId: string;
        text: string;
        /** The agent's first reply since the handoff: epoch ms of the handoff (or unasked takeover). */
        handedOffAt?: number;
      } & AgentReplyExtras,
    ): Promise<void> {
      const { handedOffAt, ...reply } = input;
      await record(input.conversation, agentMessage(reply.messageId, reply.text, reply.agent.name, now().toISOString(), reply));
      if (handedOffAt !== undefined)
        await counts.firstReply(input.conversation, (await waitedMs(input.conversation, new Date(handedOffAt), now())) / 1000);
    },
  };

  /**
   * Decides and counts the outcome once (`ConversationCounts.closed`), with the feedback ask of a
   * messaging conversation, decided once with it and written to the transcript: the delivery after
   * this effect sends it, as buttons or a list.
   */
  async function closeWithOutcome(ref: ConversationRef, closing: ClosingFacts): Promise<void> {
    const windowOpen = ref.channel === 'messaging' && ((await channel.windowOpenUntil(ref.conversationId)) ?? now()) > now();
    const ask = (rated: boolean) => askAtClose(ref, closing, { windowOpen, rated }) ?? '';
    const closed = await counts.closed(ref, closing, { unrated: ask(false), rated: ask(true) });
    if (isAsk(closed.ask)) await record(ref, askMessage(closed.ask, ref.locale, now().toISOString()));
  }

  async function finish(ref: ConversationRef, reply: ChatMessage, status: ConversationStatus): Promise<void> {
    await record(ref, reply);
    await publish(ref, { type: 'done', replyTo: reply.replyTo!, message: reply, status });
  }
}
