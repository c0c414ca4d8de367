import {
  condition,
  getExternalWorkflowHandle,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  sleep,
} from '@temporalio/workflow';
import type { Activities } from '#activities/index.js';
import { previousDeliveredSignal } from './messages.js';
import { retryWait } from './retry-wait.js';
import type { DeliverEventInput, DeliveryOutcome, DeliveryResult } from './types.js';

// Redis or the secret box away is retried here (not a failed attempt: those are the loop's).
const retry = { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds' };
// One attempt, as a local activity: it runs in the worker holding this workflow's task, so a
// delivery is one workflow task (no activity task to schedule, poll and complete), which is what
// bounds an endpoint's in-order rate. The request has its own timeout inside (10 s by default); a
// worker lost mid-attempt lets the task time out and the attempt is made again elsewhere.
const { attemptEventDelivery } = proxyLocalActivities<Activities>({ startToCloseTimeout: '1 minute', retry });
const { giveUpEventDelivery } = proxyActivities<Activities>({ startToCloseTimeout: '1 minute', retry });

/**
 * Delivers one event to one endpoint. Started ahead (`gated`), it first waits until the delivery
 * before it is done (`previousDelivered`, from that delivery itself or from the sequencer). Then it
 * attempts until one is answered 2xx, waiting 1 s, then twice as long each time up to the cap, each
 * wait lengthened by up to a fifth at random (so that endpoints recovering together are not all
 * called at once). When the next wait would end past the horizon (24 hours by default) from the
 * first attempt, the event is recorded as given up with its last error and the endpoint disabled.
 * Done, it tells the next delivery (`successorId`) straight away, without waiting for the sequencer
 * to hear of its completion.
 */
export async function deliverEventWorkflow(input: DeliverEventInput): Promise<DeliveryResult> {
  let mayGo = !input.gated;
  setHandler(previousDeliveredSignal, () => void (mayGo = true));
  if (!mayGo) await condition(() => mayGo);
  const outcome = await deliver(input);
  let successorSignaled = false;
  if (input.successorId) {
    try {
      await getExternalWorkflowHandle(input.successorId).signal(previousDeliveredSignal);
      successorSignaled = true;
    } catch {
      // Not started yet (or not at all: a repeated event): the sequencer tells it instead.
    }
  }
  return { outcome, successorSignaled };
}

async function deliver(input: DeliverEventInput): Promise<DeliveryOutcome> {
  const { settings } = input;
  const startedAt = Date.now();
  let lastError = '';
  for (let attempt = 1; ; attempt += 1) {
    const result = await attemptEventDelivery({ ...delivery(input), attempt });
    if (result.outcome !== 'failed') return result.outcome;
    lastError = result.error ?? 'failed';
    const wait = retryWait(attempt, settings);
    if (Date.now() + wait - startedAt > settings.horizonMs) {
      await giveUpEventDelivery({ ...delivery(input), attempt, lastError });
      return 'gave_up';
    }
    await sleep(wait);
  }
}

function delivery({ tenantId, endpointId, event }: DeliverEventInput) {
  return { tenantId, endpointId, event };
}
