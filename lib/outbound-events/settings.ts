import { defaultBacklog, type DeliverySettings } from '#workflows/outbound-events/types.js';

/** How long a sequencer with nothing to deliver stays before it ends. */
const sequencerIdleMs = 10 * 60_000;

/** The retry settings every delivery workflow carries, from the configuration (EVENT_DELIVERY_*). */
export function deliverySettingsOf(events: { horizonMs: number; maxIntervalMs: number }): DeliverySettings {
  return {
    initialIntervalMs: 1000,
    maxIntervalMs: events.maxIntervalMs,
    horizonMs: events.horizonMs,
    idleMs: sequencerIdleMs,
    backlogMaxEvents: defaultBacklog.maxEvents,
    backlogMaxBytes: defaultBacklog.maxBytes,
  };
}
