/** An event as its endpoint receives it: these are the exact fields of the body, signed. */
export interface EventEnvelope {
  /** `evt_` and 32 hex digits, derived from the fact: the same fact, the same id. */
  id: string;
  /** One of `eventTypes` (`lib/outbound-events/event-types.ts`). */
  type: string;
  tenantId: string;
  /** When the fact was emitted, ISO 8601 UTC. */
  createdAt: string;
  data: Record<string, unknown>;
}

/** How deliveries are retried (EVENT_DELIVERY_* variables), carried in each workflow's input. */
export interface DeliverySettings {
  /** First wait after a failed attempt; each next one doubles. */
  initialIntervalMs: number;
  /** The longest wait between two attempts (before jitter). */
  maxIntervalMs: number;
  /** How long an event is retried, from its first attempt; then it is dropped and the endpoint disabled. */
  horizonMs: number;
  /** How long a sequencer with nothing to send waits before it ends (the next event starts it again). */
  idleMs: number;
  /**
   * The most events a sequencer holds queued (behind the delivery under way) before it gives up on
   * the endpoint: the ones queued are skipped and the endpoint disabled. Absent in sequencers started
   * before it existed: `defaultBacklog` applies.
   */
  backlogMaxEvents?: number;
  /** The same, in characters of the queued envelopes' JSON (kept well under Temporal's 2 MB payload limit). */
  backlogMaxBytes?: number;
}

/** The backlog cap when the settings carry none (see docs/outbound-events.md, "Backlog cap"). */
export const defaultBacklog = { maxEvents: 5_000, maxBytes: 1_000_000 } as const;

export interface DeliverEventsInput {
  tenantId: string;
  endpointId: string;
  settings: DeliverySettings;
  /** Carried over by continue-as-new: events taken in but not yet delivered, in order. */
  pending?: EventEnvelope[];
  /** Carried over by continue-as-new: the ids of the latest events taken in, for deduplication. */
  seen?: string[];
}

/**
 * `deliverEventsWorkflow`'s signature, for its client: `typeof` the workflow would bring its module, and with it the
 * activities' types, into the library that starts it.
 */
export type DeliverEventsWorkflow = (input: DeliverEventsInput) => Promise<void>;

export interface DeliverEventInput {
  tenantId: string;
  endpointId: string;
  event: EventEnvelope;
  settings: DeliverySettings;
  /** Started ahead, while the delivery before it is still under way: waits for `previousDelivered`. */
  gated?: boolean;
  /** The workflow id of the next event's delivery, if known: told `previousDelivered` once this one is done. */
  successorId?: string;
}

/** An event as the deliveries list names it: what the sequencer hands over of the events it skips. */
export type EventRef = Pick<EventEnvelope, 'id' | 'type'>;

/** How a delivery ended. */
export type DeliveryOutcome = 'delivered' | 'gave_up' | 'skipped';

/** What a delivery workflow returns to its sequencer. */
export interface DeliveryResult {
  outcome: DeliveryOutcome;
  /** Whether the next delivery heard from this one that it may go (else the sequencer tells it). */
  successorSignaled: boolean;
}

/** What one attempt found: an answer of 2xx, a failure to try again, or no endpoint to send to. */
export interface AttemptResult {
  outcome: 'delivered' | 'failed' | 'skipped';
  /** For a failure: its words, kept as the delivery's last error. */
  error?: string;
}
