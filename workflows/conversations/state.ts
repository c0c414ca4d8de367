import type {
  Agent,
  AgentReply,
  ClosedBy,
  ClosingFacts,
  ConversationEffect,
  ConversationSnapshot,
  QueuedEffect,
  ConversationStatus,
  ConversationTimers,
  HandoffBy,
  VisitorMessage,
  VisitorMessageResult,
} from './types.js';
import { agentReplyRefusal } from './reply-rule.js';

/** How many recent message ids are remembered to drop redeliveries. */
const seenLimit = 500;

/** Answers in a row that find nothing before the AI hands the customer to a person. */
export const aiHandoffAfterUnknowns = 2;

export type DueTimer = 'agentWaitNotice' | 'idle';

/**
 * The conversation's rules, free of Temporal: transitions, validation and timers. The workflow
 * feeds it messages and the clock, and carries out the effects it queues, in order.
 */
export class Conversation {
  private readonly state: ConversationSnapshot;

  constructor(snapshot: ConversationSnapshot) {
    this.state = copy(snapshot);
  }

  static start(now: number): Conversation {
    return new Conversation({
      status: 'ai',
      agent: null,
      lastActivityAt: now,
      waitingSince: null,
      waitNoticeSent: false,
      seenMessageIds: [],
      pending: [],
      nextEffectId: 1,
      unansweredInARow: 0,
      handoffBy: null,
      handedOffAt: null,
      agentReplied: false,
      answered: false,
    });
  }

  get status(): ConversationStatus {
    return this.state.status;
  }

  get closed(): boolean {
    return this.state.status === 'closed';
  }

  snapshot(): ConversationSnapshot {
    return copy(this.state);
  }

  /** Takes in a visitor's message; a message seen before, or one after closing, is dropped. */
  receive(message: VisitorMessage, now: number): boolean {
    if (this.closed || this.state.seenMessageIds.includes(message.messageId)) return false;
    this.remember(message.messageId);
    this.state.lastActivityAt = now;
    this.enqueue({ kind: 'visitorMessage', message });
    return true;
  }

  /**
   * Moves an AI conversation to `waiting_for_agent`; anything else is left as it is. `announced`:
   * the AI's reply already told the customer, so no notice follows.
   */
  requestHandoff(by: HandoffBy, now: number, options: { first?: boolean; announced?: boolean } = {}): boolean {
    if (this.state.status !== 'ai') return false;
    this.noteHandoff(by, now);
    this.state.status = 'waiting_for_agent';
    this.state.waitingSince = now;
    this.state.waitNoticeSent = false;
    // A handoff found while answering a message goes right after it, before the messages that came later.
    const notice = options.announced ? null : 'handoffStarted';
    this.enqueue({ kind: 'status', status: 'waiting_for_agent', notice, agent: null }, options.first ? 1 : undefined);
    return true;
  }

  /**
   * The platform refused a message because the 24-hour window had closed: a person has to take it
   * from here (only they can reach the customer again, once the customer writes). An AI conversation
   * waits for an agent, with no notice to the customer, which the platform would refuse as well; any
   * other status stays as it is. Answers whether the handoff happened.
   */
  windowClosed(now: number): boolean {
    return this.requestHandoff('ai', now, { announced: true });
  }

  /**
   * The AI answered a message. Having found nothing `aiHandoffAfterUnknowns` times in a row, it hands
   * the customer to a person instead of failing them again; any real answer starts the count over.
   * Answers whether that handoff happened.
   */
  noteAnswer(outcome: VisitorMessageResult['outcome'], now: number): boolean {
    if (outcome === 'answered') this.state.answered = true;
    if (outcome !== 'unknown') {
      this.state.unansweredInARow = 0;
      return false;
    }
    this.state.unansweredInARow = (this.state.unansweredInARow ?? 0) + 1;
    if (this.state.unansweredInARow < aiHandoffAfterUnknowns) return false;
    this.state.unansweredInARow = 0;
    return this.requestHandoff('ai', now, { first: true });
  }

  /** Why `agent` may not take over now, or null when it may. */
  refuseTakeOver(agent: Agent): string | null {
    if (this.closed) return 'The conversation is closed.';
    if (this.state.status === 'agent' && this.state.agent?.agentId !== agent.agentId)
      return `${this.state.agent?.name ?? 'Another agent'} has already taken this conversation over.`;
    return null;
  }

  takeOver(agent: Agent, now: number): number {
    if (this.state.status === 'agent' && this.state.agent?.agentId === agent.agentId) return this.state.nextEffectId - 1;
    // Taking over an AI conversation nobody handed off is a handoff of its own: the agent's.
    if (this.state.status === 'ai') this.noteHandoff('agent', now);
    this.state.status = 'agent';
    this.state.agent = agent;
    this.state.waitingSince = null;
    this.state.lastActivityAt = now;
    return this.enqueue({ kind: 'status', status: 'agent', notice: 'agentJoined', agent });
  }

  refuseAgentReply(agentId: string): string | null {
    return agentReplyRefusal(this.state.status, this.state.agent?.agentId, agentId);
  }

  agentReply(reply: AgentReply, now: number): number {
    this.state.lastActivityAt = now;
    const { template, attachment } = reply;
    // The first reply since the handoff carries when that was: the time to it is counted once.
    const handedOffAt = this.state.agentReplied || this.state.handedOffAt == null ? undefined : this.state.handedOffAt;
    if (handedOffAt !== undefined) this.state.agentReplied = true;
    return this.enqueue({
      kind: 'agentMessage',
      agent: this.state.agent!,
      messageId: reply.messageId,
      text: reply.text,
      ...(handedOffAt !== undefined ? { handedOffAt } : {}),
      ...(template ? { template } : {}),
      ...(attachment ? { attachment } : {}),
    });
  }

  refuseHandBack(agentId: string): string | null {
    if (this.closed) return 'The conversation is closed.';
    if (this.state.status === 'ai') return 'The AI already has this conversation.';
    if (this.state.status === 'agent' && this.state.agent?.agentId !== agentId)
      return 'Only the agent who took the conversation over can hand it back.';
    return null;
  }

  handBack(now: number): number {
    this.state.status = 'ai';
    this.state.agent = null;
    this.state.waitingSince = null;
    this.state.lastActivityAt = now;
    return this.enqueue({ kind: 'status', status: 'ai', notice: 'handedBackToAi', agent: null });
  }

  refuseClose(): string | null {
    return this.closed ? 'The conversation is already closed.' : null;
  }

  close(by: ClosedBy): number {
    this.state.status = 'closed';
    this.state.waitingSince = null;
    return this.enqueue({
      kind: 'status',
      status: 'closed',
      notice: by === 'idle' ? 'closedIdle' : 'closedByAgent',
      agent: null,
      closing: this.closingFacts(by),
    });
  }

  /** What the outcome is decided from, when the conversation closes `by` someone. */
  closingFacts(by: ClosedBy): ClosingFacts {
    return { closedBy: by, handoffBy: this.state.handoffBy ?? null, answered: this.state.answered ?? false };
  }

  /** The next effect to carry out, left queued until `completeEffect`. */
  nextEffect(): QueuedEffect | undefined {
    return this.state.pending[0];
  }

  completeEffect(): void {
    this.state.pending.shift();
  }

  /** True once the effect with this id (as a transition returned it) has been carried out. */
  isDone(effectId: number): boolean {
    return !this.state.pending.some((effect) => effect.id === effectId);
  }

  /** The earliest moment a timer is due, in epoch ms, or null when none runs. */
  nextDeadline(timers: ConversationTimers): number | null {
    if (this.closed) return null;
    const deadlines = [this.state.lastActivityAt + timers.idleTimeoutMs];
    if (this.state.status === 'waiting_for_agent' && !this.state.waitNoticeSent && this.state.waitingSince !== null)
      deadlines.push(this.state.waitingSince + timers.agentWaitNoticeMs);
    return Math.min(...deadlines);
  }

  /**
   * Fires the timer that is due at `now`, if any: the wait notice (once per handoff) or the idle
   * close. A conversation waiting for or talking with an agent is not closed while work is queued.
   */
  fireDueTimer(now: number, timers: ConversationTimers): DueTimer | null {
    if (this.closed || this.state.pending.length > 0) return null;
    const waiting = this.state.status === 'waiting_for_agent' && this.state.waitingSince !== null;
    if (waiting && !this.state.waitNoticeSent && now >= this.state.waitingSince! + timers.agentWaitNoticeMs) {
      this.state.waitNoticeSent = true;
      this.enqueue({ kind: 'status', status: 'waiting_for_agent', notice: 'stillWaitingForAgent', agent: null });
      return 'agentWaitNotice';
    }
    if (now >= this.state.lastActivityAt + timers.idleTimeoutMs) {
      this.close('idle');
      return 'idle';
    }
    return null;
  }

  /** The first handoff (or unasked takeover) is the conversation's: who, and when. */
  private noteHandoff(by: HandoffBy, now: number): void {
    if (this.state.handoffBy) return;
    this.state.handoffBy = by;
    this.state.handedOffAt = now;
  }

  /** Queues an effect (at `position`, else last) and returns its id. */
  private enqueue(effect: ConversationEffect, position?: number): number {
    const id = this.state.nextEffectId++;
    this.state.pending.splice(position ?? this.state.pending.length, 0, { ...effect, id });
    return id;
  }

  private remember(messageId: string): void {
    this.state.seenMessageIds.push(messageId);
    if (this.state.seenMessageIds.length > seenLimit)
      this.state.seenMessageIds.splice(0, this.state.seenMessageIds.length - seenLimit);
  }
}

/** A deep copy of plain data (the workflow sandbox has no structuredClone). */
function copy<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
