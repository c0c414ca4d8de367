import { createHash } from 'node:crypto';

/** Every event a tenant's endpoint can subscribe to (docs/outbound-events.md describes each payload). */
export const eventTypes = [
  'conversation.created',
  'conversation.handed_off',
  'conversation.agent_assigned',
  'conversation.assigned',
  'conversation.closed',
  'message.created',
  'sla.breached',
  'ingestion.failed',
  'connector.sync_failed',
  'connector.sync_finished',
] as const;

export type EventType = (typeof eventTypes)[number];

/** An event as it is emitted: the fact, named by an id derived from it. */
export interface NewEvent {
  /** `evt_` and 32 hex digits, derived from the fact (see `eventIdOf`): the same fact, the same id. */
  id: string;
  type: EventType;
  data: Record<string, unknown>;
}

/** The body POSTed to an endpoint (its exact bytes are what the signature covers). */
export interface EventEnvelope extends NewEvent {
  tenantId: string;
  /** When the fact was emitted, ISO 8601 UTC. */
  createdAt: string;
}

/**
 * The event id of a fact: a hash of its type and what names it (a conversation id and an effect
 * number, a job and its generation…). An activity retried emits the same id, and deliveries are
 * deduplicated by it.
 */
export function eventIdOf(type: EventType, ...parts: string[]): string {
  return `evt_${createHash('sha256')
    .update([type, ...parts].join('\n'))
    .digest('hex')
    .slice(0, 32)}`;
}
