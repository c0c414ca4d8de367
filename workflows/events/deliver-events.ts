import { allHandlersFinished, condition, continueAsNew, executeChild, setHandler, workflowInfo } from '@temporalio/workflow';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { eventDeliveryWorkflowId } from '../ids.js';
import { deliverEventWorkflow } from './deliver-event.js';
import { outboundEventSignal } from './messages.js';
import type { DeliverEventsInput, EventEnvelope } from './types.js';

/** Ids of the latest events remembered for deduplication (the child's id catches older repeats). */
const rememberedIds = 500;
/** Continue as new well before Temporal's own limits. */
const maxHistoryEvents = 2_000;

/**
 * The sequencer of one endpoint (signal-with-start, one per endpoint): events arrive as signals, are
 * deduplicated by event id, and are delivered one at a time in the order they arrived, each by a
 * child workflow of its own (`deliverEventWorkflow`, id `<this id>/<event id>`, which an event
 * emitted again cannot start twice). It ends after `idleMs` with nothing to send, and continues as
 * new before its history grows large, carrying what is still queued.
 */
export async function deliverEventsWorkflow(input: DeliverEventsInput): Promise<void> {
  const queue: EventEnvelope[] = [...(input.pending ?? [])];
  const recent: string[] = [...(input.seen ?? [])];
  const seen = new Set(recent);

  setHandler(outboundEventSignal, (event) => {
    if (seen.has(event.id)) return;
    seen.add(event.id);
    recent.push(event.id);
    if (recent.length > rememberedIds) seen.delete(recent.shift()!);
    queue.push(event);
  });

  for (;;) {
    if (queue.length === 0) {
      const woken = await condition(() => queue.length > 0, input.settings.idleMs);
      if (!woken && queue.length === 0) break;
    }
    await deliver(input, queue.shift()!);
    const info = workflowInfo();
    if (info.continueAsNewSuggested || info.historyLength > maxHistoryEvents) {
      await condition(allHandlersFinished);
      await continueAsNew<typeof deliverEventsWorkflow>({ ...input, pending: queue, seen: recent });
    }
  }
}

async function deliver({ tenantId, endpointId, settings }: DeliverEventsInput, event: EventEnvelope): Promise<void> {
  try {
    await executeChild(deliverEventWorkflow, {
      workflowId: eventDeliveryWorkflowId(tenantId, endpointId, event.id),
      args: [{ tenantId, endpointId, event, settings }],
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
    });
  } catch (error) {
    // Delivered (or given up) before: an activity retried emitted the same event again.
    if (error instanceof WorkflowExecutionAlreadyStartedError) return;
    throw error;
  }
}
