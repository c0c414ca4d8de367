/** The conversation's wire types: workflow input, messages and the snapshot carried across runs. */

import type { Locale } from '../locales.js';

export const conversationStatuses = ['ai', 'waiting_for_agent', 'agent', 'closed'] as const;
/** `ai` answers; `waiting_for_agent` after a handoff, until an agent takes over; `agent` while one does. */
export type ConversationStatus = (typeof conversationStatuses)[number];

export const channels = ['widget', 'messaging'] as const;
export type Channel = (typeof channels)[number];

/** Who a conversation belongs to and how it speaks; fixed for its whole life. */
export interface ConversationRef {
  conversationId: string;
  tenantId: string;
  operatorId: string;
  knowledgeBaseId: string;
  channel: Channel;
  /** Resolved where the conversation started. */
  locale: Locale;
  /** Messaging channel only: the connection it came in through and the customer's platform id. */
  messaging?: MessagingAddress;
}

export interface MessagingAddress {
  connectionId: string;
  /** The customer's WhatsApp id (their number's digits), where replies go. */
  customer: string;
}

export interface ConversationTimers {
  /** After this long in `waiting_for_agent`, the customer is told an agent will come as soon as possible. */
  agentWaitNoticeMs: number;
  /** A conversation with no message for this long is closed. */
  idleTimeoutMs: number;
}

export interface ConversationInput {
  conversation: ConversationRef;
  timers: ConversationTimers;
  /** Continue as new past this many history events (default 2,000), or sooner if Temporal suggests it. */
  maxHistoryEvents?: number;
  /** Present when the workflow continued as new: where the previous run left off. */
  snapshot?: ConversationSnapshot;
}

/**
 * `conversationWorkflow`'s signature, for its clients: `typeof` the workflow would bring its module, and with it the
 * activities' types, into the library that starts it.
 */
export type ConversationWorkflow = (input: ConversationInput) => Promise<void>;

export interface VisitorMessage {
  messageId: string;
  text: string;
}

/**
 * What an agent's reply on the messaging channel may carry besides its text: an approved template
 * (the only message allowed once the 24-hour window has closed), or a file already uploaded to the
 * platform. The text is then what the customer sees.
 */
export interface AgentReplyExtras {
  template?: { name: string; language: string; parameters: string[] };
  attachment?: { type: 'image' | 'document'; mediaId: string; url: string; caption?: string; filename?: string };
}

/** An agent's reply, as the `agentReply` update takes it. */
export type AgentReply = { agentId: string; messageId: string; text: string } & AgentReplyExtras;

export interface Agent {
  agentId: string;
  name: string;
}

export type HandoffBy = 'visitor' | 'ai' | 'agent';

/**
 * One step of assigning a conversation that needs a person (docs/agent-inbox.md, "Teams and assignment"):
 * `route` at a handoff (the team by the tenant's rules, then an agent of it when the team assigns
 * automatically); `next` when the agent it was given did not take it up in time or left (`fallback`: with
 * no one else, keep it where it is, or put it back in the team's queue); `offer` when an available agent
 * with room asks for the next waiting conversation; `manual` when a person assigns it (or no one).
 */
export type AssignmentStep =
  | { kind: 'route' }
  | { kind: 'next'; exclude: string[]; fallback: 'keep' | 'queue' }
  | { kind: 'offer'; agentId: string }
  | { kind: 'manual'; agent: Agent | null; teamId?: string | null; by: Agent };

/** Where an assignment step left the conversation. */
export interface AssignmentResult {
  teamId: string | null;
  agent: Agent | null;
  /** The team's limit for taking it up, when it assigns automatically: then it is offered to the next. */
  offerMs: number | null;
  /** The team has service-level targets: the conversation's clocks start (absent in older results: none). */
  sla?: boolean;
}

export const slaMetrics = ['firstResponse', 'nextResponse', 'resolution'] as const;
/** What a team's service-level targets time: the first agent reply, each next reply, the close. */
export type SlaMetric = (typeof slaMetrics)[number];

/** One running service-level clock: when it is due (epoch ms, in open time where the team has office hours). */
export interface SlaClock {
  dueAt: number;
  /** Next response: the how-manyth customer message awaiting a reply (each is met or breached once). */
  cycle: number;
  breached: boolean;
}

export type SlaClocks = Partial<Record<SlaMetric, SlaClock>>;

/**
 * A change of the conversation's clocks, at `at` (epoch ms): clocks to start (their due time is the
 * activity's to compute: office hours), to stop (met when not breached), to drop (stopped, counting
 * nothing: a first response never owed once the conversation closed), and the one breached now.
 */
export interface SlaChange {
  at: number;
  start?: SlaMetric[];
  stop?: SlaMetric[];
  drop?: SlaMetric[];
  breach?: SlaMetric;
}
export type ClosedBy = 'agent' | 'visitor' | 'idle';

/** Everything the workflow keeps between events; small and serialisable. */
export interface ConversationSnapshot {
  status: ConversationStatus;
  agent: Agent | null;
  /** Epoch ms of the last message either way: the idle timer runs from here. */
  lastActivityAt: number;
  /** Epoch ms when the conversation started waiting for an agent, or null. */
  waitingSince: number | null;
  waitNoticeSent: boolean;
  /** Message ids already taken in (bounded), so a redelivered message does nothing the second time. */
  seenMessageIds: string[];
  /** Work taken in but not yet carried out, in order. */
  pending: QueuedEffect[];
  /** The id the next queued effect gets; an update waits until its own effect has left the queue. */
  nextEffectId: number;
  /** Answers in a row that found nothing in the knowledge base (absent in older snapshots: 0). */
  unansweredInARow?: number;
  /**
   * Who first handed the conversation to a person (absent in older snapshots, null while none has):
   * the customer asked, the AI gave up (unknowns, the answer budget, the closed window), or an agent
   * took over an AI conversation unasked.
   */
  handoffBy?: HandoffBy | null;
  /** Epoch ms of that first handoff (or unasked takeover): time to the first agent reply runs from here. */
  handedOffAt?: number | null;
  /** True once an agent has replied after the handoff (the first reply is counted once). */
  agentReplied?: boolean;
  /** True once the AI answered a question from the knowledge base (absent in older snapshots: false). */
  answered?: boolean;
  /** Set when the conversation started with assignment (absent in older ones: they are never routed). */
  assigning?: boolean;
  /** Its team and assignee, as the last assignment step left them (absent: none yet). */
  assignment?: AssignmentResult & { at: number };
  /** Its running service-level clocks (absent: none). */
  sla?: SlaClocks;
}

/** A notice the operator posts into the conversation when its status changes. */
export type StatusNotice =
  'handoffStarted' | 'stillWaitingForAgent' | 'agentJoined' | 'handedBackToAi' | 'closedIdle' | 'closedByAgent';

/** A side effect the workflow carries out through an activity, one at a time, in order. */
export type ConversationEffect =
  | { kind: 'visitorMessage'; message: VisitorMessage }
  | {
      kind: 'status';
      status: ConversationStatus;
      notice: StatusNotice | null;
      agent: Agent | null;
      /** On closing: what decides the outcome (absent from effects queued by older code). */
      closing?: ClosingFacts;
    }
  | { kind: 'assign'; step: AssignmentStep }
  | { kind: 'sla'; change: SlaChange }
  | ({
      kind: 'agentMessage';
      agent: Agent;
      messageId: string;
      text: string;
      /** The agent's first reply since the handoff: epoch ms of the handoff (or unasked takeover). */
      handedOffAt?: number;
    } & AgentReplyExtras);

/** What the workflow knows when a conversation closes: the status activity decides the outcome from it. */
export interface ClosingFacts {
  closedBy: ClosedBy;
  handoffBy: HandoffBy | null;
  /** At least one question was answered from the knowledge base. */
  answered: boolean;
}

export type QueuedEffect = ConversationEffect & { id: number };

/** What became of a visitor's message, as the reply activity reports it. */
export interface VisitorMessageResult {
  /** The visitor asked for a person: the conversation moves to `waiting_for_agent`. */
  handoffRequested: boolean;
  /** Who asked for the handoff: `ai` when the day's answer budget was spent (absent in older results: the visitor). */
  handoffBy?: HandoffBy;
  /** What the answer was: `unknown` when the knowledge base held nothing to answer with. */
  outcome?: 'answered' | 'unknown' | 'handoff' | 'failed';
}
