import { log } from '@temporalio/activity';
import type { DeliveryLog } from '#outbound-events/deliveries.js';
import type { EventEndpoints } from '#outbound-events/endpoints.js';
import type { EventType } from '#outbound-events/event-types.js';
import { signatureHeaders, signatureOf } from '#outbound-events/signature.js';
import { OutboundError, type OutboundPost } from '#platform/outbound/outbound-http.js';
import type { AttemptResult, EventEnvelope, EventRef } from '#workflows/outbound-events/types.js';

export interface EventDeliveryDeps {
  endpoints: Pick<EventEndpoints, 'get' | 'signingSecretOf' | 'disable'>;
  deliveries: Pick<DeliveryLog, 'record' | 'recent'>;
  /** The SSRF-safe way out (lib/platform/outbound/). */
  http: OutboundPost;
  /** One request's time (EVENT_DELIVERY_TIMEOUT_SECONDS). */
  requestTimeoutMs: number;
  now?: () => Date;
}

interface DeliveryInput {
  tenantId: string;
  endpointId: string;
  event: EventRef;
  attempt: number;
}

/** The body sent: these fields in this order; the signature covers its exact bytes. */
export function eventBody({ id, type, tenantId, createdAt, data }: EventEnvelope): string {
  return JSON.stringify({ id, type, tenantId, createdAt, data });
}

/** The outbound events' side effects: one signed attempt at a time, each recorded in the endpoint's deliveries. */
export function createEventDeliveryActivities({
  endpoints,
  deliveries,
  http,
  requestTimeoutMs,
  now = () => new Date(),
}: EventDeliveryDeps) {
  const record = (
    input: DeliveryInput,
    entry: {
      outcome: 'delivered' | 'failed' | 'gave_up' | 'skipped';
      attempt?: number;
      statusCode?: number | null;
      error?: string | null;
    },
  ) =>
    deliveries.record(input.endpointId, {
      eventId: input.event.id,
      type: input.event.type as EventType,
      attempt: entry.attempt ?? input.attempt,
      outcome: entry.outcome,
      statusCode: entry.statusCode ?? null,
      error: entry.error ?? null,
      at: now().toISOString(),
    });
  /** An event not sent because its endpoint is disabled (by a give-up, an overflow or an admin). */
  const recordSkipped = (input: DeliveryInput) =>
    record(input, { outcome: 'skipped', attempt: 0, error: 'The endpoint is disabled.' });

  return {
    /**
     * POSTs the event, signed, to its endpoint once. A 2xx is `delivered`; any other answer or none is
     * `failed` with its reason (the workflow waits and tries again). An endpoint removed, disabled or
     * of another tenant is `skipped`. Only Redis or the secrets failing throw (Temporal retries those).
     */
    async attemptEventDelivery(input: DeliveryInput & { event: EventEnvelope }): Promise<AttemptResult> {
      const endpoint = await endpoints.get(input.endpointId);
      if (!endpoint || endpoint.tenantId !== input.tenantId) return { outcome: 'skipped' };
      if (endpoint.status !== 'active') {
        await recordSkipped(input);
        return { outcome: 'skipped' };
      }
      const secret = await endpoints.signingSecretOf(endpoint);
      if (!secret) return { outcome: 'skipped' };
      const body = eventBody(input.event);
      const timestamp = Math.floor(now().getTime() / 1000);
      let result: AttemptResult & { statusCode: number | null };
      try {
        const answer = await http.post(endpoint.url, {
          headers: {
            'content-type': 'application/json',
            'user-agent': 'kb-assistant-events/1',
            [signatureHeaders.eventId]: input.event.id,
            [signatureHeaders.eventType]: input.event.type,
            [signatureHeaders.timestamp]: String(timestamp),
            [signatureHeaders.signature]: signatureOf(secret, timestamp, body),
          },
          body,
          signal: AbortSignal.timeout(requestTimeoutMs),
        });
        result =
          answer.status >= 200 && answer.status < 300
            ? { outcome: 'delivered', statusCode: answer.status }
            : {
                outcome: 'failed',
                statusCode: answer.status,
                error:
                  answer.status >= 300 && answer.status < 400
                    ? `answered ${answer.status} ${answer.statusText}: redirects are not followed`
                    : `answered ${answer.status} ${answer.statusText}`,
              };
      } catch (error) {
        if (!(error instanceof OutboundError)) throw error;
        // The message names the host only, never an address or a socket error (outbound-error.ts).
        result = { outcome: 'failed', statusCode: null, error: error.message };
      }
      await record(input, { outcome: result.outcome, statusCode: result.statusCode, error: result.error ?? null });
      if (result.outcome === 'failed')
        log.info('event delivery failed', { endpointId: input.endpointId, eventId: input.event.id, attempt: input.attempt });
      return result.outcome === 'failed' ? { outcome: 'failed', error: result.error! } : { outcome: 'delivered' };
    },

    /** The retry horizon passed: the event is recorded as given up, and the endpoint disabled with the reason. */
    async giveUpEventDelivery(input: DeliveryInput & { lastError: string }): Promise<void> {
      const error = `Gave up after ${input.attempt} attempts; last error: ${input.lastError}`;
      await record(input, { outcome: 'gave_up', error });
      await endpoints.disable(
        input.endpointId,
        `Deliveries failed for the whole retry period (event ${input.event.id}, ${input.event.type}): ${input.lastError}`,
      );
    },

    /**
     * The endpoint's sequencer holds more events than its backlog cap: the endpoint is disabled at
     * once, naming the backlog and the last error of the delivery holding it up (the latest failed
     * attempt in its deliveries list), and the queued events are recorded as skipped, like those
     * queued behind a give-up. The deliveries under way find the endpoint disabled at their next
     * attempt and are skipped too.
     */
    async giveUpEventBacklog(input: {
      tenantId: string;
      endpointId: string;
      skipped: EventRef[];
      /** The cap passed: `5000 events` or `1000000 characters`. */
      cap: string;
    }): Promise<void> {
      const [lastFailure] = (await deliveries.recent(input.endpointId)).filter((entry) => entry.outcome === 'failed');
      const holdingUp = lastFailure
        ? `event ${lastFailure.eventId} (${lastFailure.type}) kept failing: ${lastFailure.error}`
        : 'the delivery under way had not finished';
      await endpoints.disable(input.endpointId, `More events waited than the backlog allows (${input.cap}) while ${holdingUp}`);
      for (const event of input.skipped) await recordSkipped({ ...input, event, attempt: 0 });
    },
  };
}
