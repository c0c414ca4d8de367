import { eventIdOf, type NewEvent } from './event-types.js';

/*
 * Each event's payload (`data`) and id, built from the fact that became durable. The ids derive from
 * what names the fact, so an activity retried emits the same event. docs/outbound-events.md and the
 * OpenAPI `webhooks` (api/schemas/event-endpoints.ts) describe these shapes.
 */

interface ConversationFact {
  conversationId: string;
  operatorId: string;
  knowledgeBaseId: string;
  channel: string;
}

const conversationOf = ({ conversationId, operatorId, knowledgeBaseId, channel }: ConversationFact) => ({
  conversationId,
  operatorId,
  knowledgeBaseId,
  channel,
});

export function conversationCreated(ref: ConversationFact): NewEvent {
  return { id: eventIdOf('conversation.created', ref.conversationId), type: 'conversation.created', data: conversationOf(ref) };
}

/**
 * A change of status recorded by the conversation workflow (its effect number names it): handed off
 * (now waiting for an agent), an agent assigned, or closed. Other changes are no event.
 */
export function conversationStatusChanged(
  ref: ConversationFact,
  change: { status: string; effectId: number; agent: { agentId: string; name: string } | null; reminder: boolean },
): NewEvent | undefined {
  const type =
    change.status === 'waiting_for_agent' && !change.reminder
      ? 'conversation.handed_off'
      : change.status === 'agent'
        ? 'conversation.agent_assigned'
        : change.status === 'closed'
          ? 'conversation.closed'
          : undefined;
  if (!type) return undefined;
  return {
    id: eventIdOf(type, ref.conversationId, String(change.effectId)),
    type,
    data: {
      ...conversationOf(ref),
      status: change.status,
      agent: change.agent ? { id: change.agent.agentId, name: change.agent.name } : null,
    },
  };
}

/**
 * A conversation's team or assignee changed (the workflow's assignment step, named by its effect number):
 * routed at a handoff, given to the next agent, offered, or assigned by a person (`by`).
 */
export function conversationAssigned(
  ref: ConversationFact,
  change: {
    effectId: number;
    teamId: string | null;
    assignee: { id: string; name: string } | null;
    reason: string;
    by?: { id: string; name: string };
  },
): NewEvent {
  return {
    id: eventIdOf('conversation.assigned', ref.conversationId, String(change.effectId)),
    type: 'conversation.assigned',
    data: {
      ...conversationOf(ref),
      teamId: change.teamId,
      assignee: change.assignee,
      reason: change.reason,
      by: change.by ?? null,
    },
  };
}

/** A service-level clock of a conversation ran out (once per clock: its metric and when it started name it). */
export function slaBreached(
  ref: ConversationFact,
  breach: { metric: string; cycle: number; dueAt: number; teamId: string | null; assigneeId: string | null },
): NewEvent {
  return {
    id: eventIdOf('sla.breached', ref.conversationId, breach.metric, String(breach.cycle)),
    type: 'sla.breached',
    data: {
      ...conversationOf(ref),
      metric: breach.metric,
      dueAt: new Date(breach.dueAt).toISOString(),
      teamId: breach.teamId,
      assigneeId: breach.assigneeId,
    },
  };
}

export function messageCreated(
  ref: ConversationFact,
  message: { id: string; author: string; text: string; createdAt: string; replyTo?: string },
): NewEvent {
  return {
    id: eventIdOf('message.created', ref.conversationId, message.id),
    type: 'message.created',
    data: {
      ...conversationOf(ref),
      message: {
        id: message.id,
        author: message.author,
        text: message.text,
        createdAt: message.createdAt,
        replyTo: message.replyTo ?? null,
      },
    },
  };
}

export function ingestionFailed(fact: {
  jobId: string;
  integrationId: string;
  externalId: string;
  knowledgeBaseId: string;
  /** The version that failed: its job generation (each accepted version has its own). */
  version: string;
  error: { code: string; message: string };
}): NewEvent {
  const { jobId, integrationId, externalId, knowledgeBaseId, error } = fact;
  return {
    id: eventIdOf('ingestion.failed', jobId, fact.version),
    type: 'ingestion.failed',
    data: { jobId, integrationId, externalId, knowledgeBaseId, error },
  };
}

export function connectorSyncFailed(fact: {
  connectorId: string;
  kind: string;
  name: string;
  knowledgeBaseId: string;
  runId: string;
  error: string;
  /** Files: the uploaded file refused. */
  file?: Record<string, unknown>;
}): NewEvent {
  const { connectorId, kind, name, knowledgeBaseId, runId, error, file } = fact;
  return {
    id: eventIdOf('connector.sync_failed', connectorId, runId),
    type: 'connector.sync_failed',
    data: { connectorId, kind, name, knowledgeBaseId, runId, error, ...(file ? { file } : {}) },
  };
}

export function connectorSyncFinished(fact: {
  connectorId: string;
  kind: string;
  name: string;
  knowledgeBaseId: string;
  runId: string;
  mode: string;
  sent: number;
  unchanged: number;
  deleted: number;
  /** Website: the crawl's page counts. */
  pages?: Record<string, unknown>;
  /** Files: the uploaded file taken in or removed. */
  file?: Record<string, unknown>;
}): NewEvent {
  const { connectorId, kind, name, knowledgeBaseId, runId, mode, sent, unchanged, deleted, pages, file } = fact;
  return {
    id: eventIdOf('connector.sync_finished', connectorId, runId),
    type: 'connector.sync_finished',
    data: {
      connectorId,
      kind,
      name,
      knowledgeBaseId,
      runId,
      mode,
      sent,
      unchanged,
      deleted,
      ...(pages ? { pages } : {}),
      ...(file ? { file } : {}),
    },
  };
}
