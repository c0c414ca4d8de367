import { allHandlersFinished, condition, continueAsNew, log, setHandler, startChild, workflowInfo } from '@temporalio/workflow';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { eventDeliveryWorkflowId } from '../ids.js';
import { deliverEventWorkflow } from './deliver-event.js';
import { outboundEventSignal, previousDeliveredSignal } from './messages.js';
import type { DeliverEventsInput, EventEnvelope } from './types.js';

/** Ids of the latest events remembered for deduplication (the child's id catches older repeats). */
const rememberedIds = 500;
/** Continue as new well before Temporal's own limits. */
const maxHistoryEvents = 2_000;
/** Deliveries started at once: the first attempting, the others started ahead and waiting their turn. */
const startedAhead = 4;

/** A delivery the sequencer started: settled once its workflow completed (or could not start). */
interface Delivery {
  settled: boolean;
  /** Whether it told the next delivery itself that it may go. */
  done: Promise<boolean>;
}

/**
 * The sequencer of one endpoint (signal-with-start, one per endpoint): events arrive as signals, are
 * deduplicated by event id, and are delivered in the order they arrived, each by a child workflow of
 * its own (`deliverEventWorkflow`, id `<this id>/<event id>`, which an event emitted again cannot
 * start twice). Up to `startedAhead` children run at once, but only the first attempts: each one
 * started while the one before it is under way waits (`gated`) until that one is done, and is told
 * so by it directly (`successorId`) or, failing that, by this workflow. So no event is attempted
 * before the one before it was delivered or given up, and the next attempt does not wait for this
 * workflow to hear of a completion and start a child. It ends after `idleMs` with nothing to send
 * or under way, and continues as new before its history grows large (once nothing is under way),
 * carrying what is still queued.
 */
export async function deliverEventsWorkflow(input: DeliverEventsInput): Promise<void> {
  const queue: EventEnvelope[] = [...(input.pending ?? [])];
  const recent: string[] = [...(input.seen ?? [])];
  const seen = new Set(recent);
  let underWay = 0;
  let previous: Delivery | undefined;

  setHandler(outboundEventSignal, (event) => {
    if (seen.has(event.id)) return;
    seen.add(event.id);
    recent.push(event.id);
    if (recent.length > rememberedIds) seen.delete(recent.shift()!);
    queue.push(event);
  });

  for (;;) {
    if (queue.length === 0) {
      if (underWay > 0) {
        await condition(() => queue.length > 0 || underWay === 0);
        continue;
      }
      const woken = await condition(() => queue.length > 0, input.settings.idleMs);
      if (!woken && queue.length === 0) break;
    }
    await condition(() => underWay < startedAhead);
    const event = queue.shift()!;
    underWay += 1;
    const delivery = deliver(input, event, previous, queue[0]);
    void delivery.done.finally(() => (underWay -= 1));
    previous = delivery;
    const info = workflowInfo();
    if (info.continueAsNewSuggested || info.historyLength > maxHistoryEvents) {
      await condition(() => underWay === 0 && allHandlersFinished());
      await continueAsNew<typeof deliverEventsWorkflow>({ ...input, pending: queue, seen: recent });
    }
  }
}

/** Starts the event's delivery, waiting for `predecessor` when that is still under way. */
function deliver(
  { tenantId, endpointId, settings }: DeliverEventsInput,
  event: EventEnvelope,
  predecessor: Delivery | undefined,
  next: EventEnvelope | undefined,
): Delivery {
  const gated = predecessor !== undefined && !predecessor.settled;
  const delivery: Delivery = { settled: false, done: Promise.resolve(false) };
  delivery.done = (async () => {
    try {
      const child = await startChild(deliverEventWorkflow, {
        workflowId: eventDeliveryWorkflowId(tenantId, endpointId, event.id),
        args: [
          {
            tenantId,
            endpointId,
            event,
            settings,
            gated,
            ...(next ? { successorId: eventDeliveryWorkflowId(tenantId, endpointId, next.id) } : {}),
          },
        ],
        workflowIdReusePolicy: 'REJECT_DUPLICATE',
      });
      if (gated) {
        // Its predecessor tells it when done; should it not have been able to, this does.
        void predecessor!.done.then(async (told) => {
          if (!told) await child.signal(previousDeliveredSignal).catch(() => undefined);
        });
      }
      return (await child.result()).successorSignaled;
    } catch (error) {
      // Delivered (or given up) before: an activity retried emitted the same event again. Any other
      // failure (the child terminated by hand) ends this delivery too: the next one goes on.
      if (!(error instanceof WorkflowExecutionAlreadyStartedError))
        log.warn('event delivery ended without an outcome', { error });
      return false;
    } finally {
      delivery.settled = true;
    }
  })();
  return delivery;
}
