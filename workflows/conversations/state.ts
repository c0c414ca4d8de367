import type {
  Agent,
  AgentReply,
  AssignmentResult,
  AssignmentStep,
  ClosedBy,
  ClosingFacts,
  ConversationEffect,
  ConversationSnapshot,
  QueuedEffect,
  ConversationStatus,
  SlaChange,
  SlaClocks,
  SlaMetric,
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

export type DueTimer = 'agentWaitNotice' | 'offerExpired' | 'slaBreached' | 'idle';

/**
 * The conversation's rules, free of Temporal: transitions, validation and timers. The workflow
 * feeds it messages and the clock, and carries out the effects it queues, in order.
 */
export class Conversation {
  private readonly state: ConversationSnapshot;

  constructor(snapshot: ConversationSnapshot) {
    this.state = copy(snapshot);
  }

  /** `assigning`: handoffs are routed to a team and assigned (conversations started before that never are). */
  static start(now: number, { assigning = false }: { assigning?: boolean } = {}): Conversation {
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
      ...(assigning ? { assigning } : {}),
    });
  }

  get status(): ConversationStatus {
    return this.state.status;
  }

  /** Who first handed the conversation to a person, or null. */
  get handoffBy(): HandoffBy | null {
    return this.state.handoffBy ?? null;
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
    // A customer's message to a person, once they have had a first reply, starts the next-response clock.
    const clocks = this.state.sla;
    if (clocks && this.state.status !== 'ai' && !clocks.firstResponse && !clocks.nextResponse)
      this.timeSla({ at: now, start: ['nextResponse'] });
    return true;
  }

  /**
   * Moves an AI conversation to `waiting_for_agent`; anything else is left as it is. `announced`:
   * the AI's reply already told the customer, so no notice follows.
   */
  requestHandoff(by: HandoffBy, now: number, options: { first?: boolean; announced?: boolean; routed?: boolean } = {}): boolean {
    if (this.state.status !== 'ai') return false;
    this.noteHandoff(by, now);
    this.state.status = 'waiting_for_agent';
    this.state.waitingSince = now;
    this.state.waitNoticeSent = false;
    // A handoff found while answering a message goes right after it, before the messages that came later.
    const notice = options.announced ? null : 'handoffStarted';
    const position = options.first ? 1 : undefined;
    this.enqueue({ kind: 'status', status: 'waiting_for_agent', notice, agent: null }, position);
    // Then its team, and an agent of it.
    if (this.state.assigning && options.routed !== false)
      this.enqueue({ kind: 'assign', step: { kind: 'route' } }, position && position + 1);
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
    this.assignedTo(agent, now);
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
    const answered = this.running(['firstResponse', 'nextResponse']);
    const id = this.enqueue({
      kind: 'agentMessage',
      agent: this.state.agent!,
      messageId: reply.messageId,
      text: reply.text,
      ...(handedOffAt !== undefined ? { handedOffAt } : {}),
      ...(template ? { template } : {}),
      ...(attachment ? { attachment } : {}),
    });
    if (answered.length > 0) this.timeSla({ at: now, stop: answered });
    return id;
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
    this.assignedTo(null, now);
    this.state.waitingSince = null;
    this.state.lastActivityAt = now;
    const id = this.enqueue({ kind: 'status', status: 'ai', notice: 'handedBackToAi', agent: null });
    // Back with the AI: no person owes a reply any more.
    const running = this.running(['firstResponse', 'nextResponse', 'resolution']);
    if (running.length > 0) this.timeSla({ at: now, drop: running });
    return id;
  }

  refuseClose(): string | null {
    return this.closed ? 'The conversation is already closed.' : null;
  }

  close(by: ClosedBy, now: number = this.state.lastActivityAt): number {
    this.state.status = 'closed';
    this.state.waitingSince = null;
    if (this.state.assignment) this.state.assignment.agent = null;
    // Resolved in time or not, counted before the close clears who had it; a reply no longer owed counts neither way.
    const stop = this.running(['resolution']);
    const drop = this.running(['firstResponse', 'nextResponse']);
    if (stop.length + drop.length > 0) this.timeSla({ at: now, stop, drop });
    return this.enqueue({
      kind: 'status',
      status: 'closed',
      notice: by === 'idle' ? 'closedIdle' : 'closedByAgent',
      agent: null,
      closing: this.closingFacts(by),
    });
  }

  /** The team and agent the conversation is assigned to, as the last assignment step left them. */
  get assignment(): ConversationSnapshot['assignment'] {
    return this.state.assignment;
  }

  /** Why the conversation may not be assigned `to` someone (or no one) by hand now, or null when it may. */
  refuseAssign(to: Agent | null): string | null {
    if (this.closed) return 'The conversation is closed.';
    if (!to && this.state.status === 'agent')
      return `${this.state.agent?.name ?? 'An agent'} is answering this conversation: hand it back or close it instead.`;
    return null;
  }

  /**
   * Assigns the conversation by hand. An AI conversation is handed to a person first (the assigner's
   * handoff); one an agent is answering passes to the new agent, who answers from now on.
   */
  assign(to: Agent | null, teamId: string | null | undefined, by: Agent, now: number): number {
    if (this.state.status === 'ai') this.requestHandoff('agent', now, { routed: false });
    const id = this.enqueue({
      kind: 'assign',
      step: { kind: 'manual', agent: to, ...(teamId !== undefined ? { teamId } : {}), by },
    });
    if (to && this.state.status === 'agent' && this.state.agent?.agentId !== to.agentId) {
      this.state.agent = to;
      return this.enqueue({ kind: 'status', status: 'agent', notice: 'agentJoined', agent: to });
    }
    return id;
  }

  /** An available agent with room asks for a waiting conversation nobody has: answers whether it is offered to them. */
  offer(agentId: string): boolean {
    if (!this.state.assigning || this.state.status !== 'waiting_for_agent' || this.state.assignment?.agent) return false;
    if (this.state.pending.some((effect) => effect.kind === 'assign')) return false;
    this.enqueue({ kind: 'assign', step: { kind: 'offer', agentId } });
    return true;
  }

  /** The agent went away or offline: a waiting conversation given to them goes to the next, or back to the queue. */
  agentLeft(agentId: string): boolean {
    if (this.state.status !== 'waiting_for_agent' || this.state.assignment?.agent?.agentId !== agentId) return false;
    this.enqueue({ kind: 'assign', step: { kind: 'next', exclude: [agentId], fallback: 'queue' } });
    return true;
  }

  /** What an assignment step decided; a team with service-level targets starts the conversation's clocks, once. */
  noteAssignment(result: AssignmentResult, now: number): void {
    this.state.assignment = { ...result, at: now };
    if (result.sla && !this.state.sla && (this.state.status === 'waiting_for_agent' || this.state.status === 'agent'))
      this.timeSla({ at: this.state.handedOffAt ?? now, start: ['firstResponse', 'resolution'] });
  }

  /** The clocks as the SLA step left them. */
  noteSla(clocks: SlaClocks): void {
    this.state.sla = clocks;
  }

  get slaClocks(): SlaClocks | undefined {
    return this.state.sla;
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
    const offerEnds = this.offerEnds();
    if (offerEnds !== null) deadlines.push(offerEnds);
    const due = this.nextSlaDue();
    if (due) deadlines.push(due.dueAt);
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
    const offerEnds = this.offerEnds();
    if (offerEnds !== null && now >= offerEnds) {
      // Not taken up in time: the next agent (or, with no one else, the same one for another while).
      this.enqueue({ kind: 'assign', step: { kind: 'next', exclude: [], fallback: 'keep' } });
      return 'offerExpired';
    }
    const due = this.nextSlaDue();
    if (due && now >= due.dueAt) {
      // Marked here too, so the clock is not due again before its step has run.
      this.state.sla![due.metric]!.breached = true;
      this.timeSla({ at: now, breach: due.metric });
      return 'slaBreached';
    }
    if (now >= this.state.lastActivityAt + timers.idleTimeoutMs) {
      this.close('idle', now);
      return 'idle';
    }
    return null;
  }

  /** The running clock due first that has not been breached yet, or null. */
  private nextSlaDue(): { metric: SlaMetric; dueAt: number } | null {
    let first: { metric: SlaMetric; dueAt: number } | null = null;
    for (const [metric, clock] of Object.entries(this.state.sla ?? {}) as Array<[SlaMetric, NonNullable<SlaClocks[SlaMetric]>]>)
      if (!clock.breached && (!first || clock.dueAt < first.dueAt)) first = { metric, dueAt: clock.dueAt };
    return first;
  }

  /** Those of `metrics` whose clock runs. */
  private running(metrics: SlaMetric[]): SlaMetric[] {
    return metrics.filter((metric) => this.state.sla?.[metric]);
  }

  private timeSla(change: SlaChange): void {
    this.enqueue({ kind: 'sla', change });
  }

  /** When the agent a waiting conversation was given has had it for the team's limit, or null. */
  private offerEnds(): number | null {
    const assignment = this.state.assignment;
    if (this.state.status !== 'waiting_for_agent' || !assignment?.agent || assignment.offerMs === null) return null;
    return assignment.at + assignment.offerMs;
  }

  /** The conversation's agent changed outside an assignment step (taken over, handed back): its team stays. */
  private assignedTo(agent: Agent | null, now: number): void {
    if (this.state.assignment) this.state.assignment = { ...this.state.assignment, agent, at: now };
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
