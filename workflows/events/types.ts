/** An event as its endpoint receives it: these are the exact fields of the body, signed. */
export interface EventEnvelope {
  /** `evt_` and 32 hex digits, derived from the fact: the same fact, the same id. */
  id: string;
  /** One of `eventTypes` (`outbound-events/event-types.ts`). */
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
}

export interface DeliverEventsInput {
  tenantId: string;
  endpointId: string;
  settings: DeliverySettings;
  /** Carried over by continue-as-new: events taken in but not yet delivered, in order. */
  pending?: EventEnvelope[];
  /** Carried over by continue-as-new: the ids of the latest events taken in, for deduplication. */
  seen?: string[];
}

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
