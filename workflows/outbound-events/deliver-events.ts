import {
  allHandlersFinished,
  condition,
  continueAsNew,
  log,
  proxyActivities,
  setHandler,
  startChild,
  workflowInfo,
} from '@temporalio/workflow';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { eventDeliveryWorkflowId } from '../ids.js';
import { deliverEventWorkflow } from './deliver-event.js';
import { outboundEventSignal, previousDeliveredSignal } from './messages.js';
import type { Activities } from '#activities/index.js';
import { defaultBacklog, type DeliverEventsInput, type DeliverEventsWorkflow, type EventEnvelope } from './types.js';

// Redis away is retried here; the skipped list is a few hundred kB at most (ids and types).
const { giveUpEventBacklog } = proxyActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds' },
});

/** Ids of the latest events remembered for deduplication (the child's id catches older repeats). */
const rememberedIds = 500;
/** Continue as new well before Temporal's own limits. */
const maxHistoryEvents = 2_000;
/** Deliveries started at once: the first attempting, the others started ahead and waiting their turn. */
const startedAhead = 4;

/** What an envelope weighs in the backlog: the characters of its JSON (deterministic, close to its payload). */
const sizeOf = (event: EventEnvelope) => JSON.stringify(event).length;

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
 *
 * While the delivery at the head keeps failing (for up to the retry horizon), nothing else leaves
 * the queue and every new event adds its envelope to this history. So the backlog (the events taken
 * in and not yet done: queued or under way) is capped (`backlogMaxEvents`, `backlogMaxBytes`): an
 * event that would pass the cap disables the endpoint (`giveUpEventBacklog`), and the queue and that
 * event are recorded as skipped and dropped. The deliveries under way are skipped at their next
 * attempt, and the emitter sends nothing more.
 */
export async function deliverEventsWorkflow(input: DeliverEventsInput): Promise<void> {
  const queue: EventEnvelope[] = [...(input.pending ?? [])];
  const recent: string[] = [...(input.seen ?? [])];
  const seen = new Set(recent);
  const maxEvents = input.settings.backlogMaxEvents ?? defaultBacklog.maxEvents;
  const maxBytes = input.settings.backlogMaxBytes ?? defaultBacklog.maxBytes;
  /** The characters of every event taken in and not yet done (queued or under way). */
  let backlogBytes = queue.reduce((sum, event) => sum + sizeOf(event), 0);
  let underWay = 0;
  let previous: Delivery | undefined;

  setHandler(outboundEventSignal, async (event) => {
    if (seen.has(event.id)) return;
    seen.add(event.id);
    recent.push(event.id);
    if (recent.length > rememberedIds) seen.delete(recent.shift()!);
    const size = sizeOf(event);
    // The backlog counts the deliveries under way too (at once, whatever the order in which this
    // handler and the loop ran). One event alone always waits: its signal is within Temporal's limits.
    const backlog = queue.length + underWay;
    const cap =
      backlog + 1 > maxEvents
        ? `${maxEvents} events`
        : backlog > 0 && backlogBytes + size > maxBytes
          ? `${maxBytes} characters`
          : undefined;
    if (cap === undefined) {
      queue.push(event);
      backlogBytes += size;
      return;
    }
    const skipped = [...queue, event].map(({ id, type }) => ({ id, type }));
    backlogBytes -= queue.reduce((sum, queued) => sum + sizeOf(queued), 0);
    queue.length = 0;
    log.warn('event backlog over its cap: endpoint disabled', { endpointId: input.endpointId, skipped: skipped.length });
    await giveUpEventBacklog({ tenantId: input.tenantId, endpointId: input.endpointId, skipped, cap });
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
    // Emptied meanwhile by a backlog give-up.
    if (queue.length === 0) continue;
    const event = queue.shift()!;
    underWay += 1;
    const delivery = deliver(input, event, previous, queue[0]);
    void delivery.done.finally(() => {
      underWay -= 1;
      backlogBytes -= sizeOf(event);
    });
    previous = delivery;
    const info = workflowInfo();
    if (info.continueAsNewSuggested || info.historyLength > maxHistoryEvents) {
      await condition(() => underWay === 0 && allHandlersFinished());
      await continueAsNew<typeof deliverEventsWorkflow>({ ...input, pending: queue, seen: recent });
    }
  }
}

// The signature its clients are given (`types.ts`).
deliverEventsWorkflow satisfies DeliverEventsWorkflow;

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
