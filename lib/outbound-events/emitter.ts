import type { Client } from '@temporalio/client';
import { tagUnavailable } from '#platform/dependency-errors.js';
import { eventEndpointWorkflowId } from '#workflows/ids.js';
import { outboundEventSignal } from '#workflows/outbound-events/messages.js';
import type { DeliverEventsWorkflow, DeliverySettings, EventEnvelope } from '#workflows/outbound-events/types.js';
import type { EventEndpoints } from './endpoints.js';
import type { NewEvent } from './event-types.js';

export interface EventEmitterDeps {
  endpoints: Pick<EventEndpoints, 'listForTenant'>;
  temporal: Pick<Client, 'workflow'>;
  taskQueue: string;
  settings: DeliverySettings;
  now?: () => Date;
}

/**
 * Hands an event to each of the tenant's active endpoints that subscribed to its type: a
 * signal-with-start of the endpoint's sequencer (`deliverEventsWorkflow`), durable once this
 * resolves. Emitting the same event again (an activity retried) delivers it once: the sequencer and
 * the delivery workflow's id both deduplicate by event id.
 */
export function createEventEmitter({ endpoints, temporal, taskQueue, settings, now = () => new Date() }: EventEmitterDeps) {
  const signalEach = tagUnavailable('temporal', {
    async signal(envelope: EventEnvelope, endpointIds: string[]): Promise<void> {
      await Promise.all(
        endpointIds.map((endpointId) =>
          temporal.workflow.signalWithStart<DeliverEventsWorkflow, [EventEnvelope]>('deliverEventsWorkflow', {
            workflowId: eventEndpointWorkflowId(envelope.tenantId, endpointId),
            taskQueue,
            args: [{ tenantId: envelope.tenantId, endpointId, settings }],
            signal: outboundEventSignal,
            signalArgs: [envelope],
          }),
        ),
      );
    },
  });

  return {
    async emit(tenantId: string, event: NewEvent): Promise<void> {
      const subscribed = (await endpoints.listForTenant(tenantId)).filter(
        (endpoint) => endpoint.status === 'active' && endpoint.eventTypes.includes(event.type),
      );
      if (subscribed.length === 0) return;
      const envelope: EventEnvelope = {
        id: event.id,
        type: event.type,
        tenantId,
        createdAt: now().toISOString(),
        data: event.data,
      };
      await signalEach.signal(
        envelope,
        subscribed.map((endpoint) => endpoint.id),
      );
    },
  };
}

export type EventEmitter = ReturnType<typeof createEventEmitter>;

/** Emits nothing: for wirings and tests without outbound events. */
export const silentEmitter: EventEmitter = { emit: async () => undefined };
