import { patched, proxyActivities, workflowInfo, type ActivityOptions } from '@temporalio/workflow';
import type { Activities } from '#activities/index.js';
import { connectorTaskQueue } from './task-queues.js';

/**
 * Options of the connectors' activities before they had a task queue of their own (F14): kept for the
 * syncs that were running then, which must replay with the same commands.
 */
const sharedQueueOptions: ActivityOptions = {
  startToCloseTimeout: '15 minutes',
  heartbeatTimeout: '30 seconds',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '2 minutes', maximumAttempts: 8 },
};

const retry: ActivityOptions['retry'] = {
  initialInterval: '2 seconds',
  backoffCoefficient: 2,
  maximumInterval: '2 minutes',
  maximumAttempts: 8,
};

/**
 * Reading one page of a source and sending it. The activity heartbeats on progress only (an answer
 * from the source, a wait it decided, a batch sent), never on a timer: a page that makes no progress is
 * cut at the heartbeat timeout and tried again after a backoff that holds no slot. Its waits for a
 * rate-limited or failing source end within its start-to-close, with time left to send the page.
 */
const pageOptions: ActivityOptions = { startToCloseTimeout: '5 minutes', heartbeatTimeout: '45 seconds', retry };

/**
 * Beginning, ending and recording a run: the end asks our own API to clean up, which can take long
 * while making progress the activity cannot see, so it keeps beating on a timer.
 */
const runOptions: ActivityOptions = { startToCloseTimeout: '15 minutes', heartbeatTimeout: '45 seconds', retry };

/**
 * The connectors' activities as one workflow run calls them: `page` for a page of a source, `run` for
 * the rest. Call once at the start of a workflow, before its first activity: a run that began before
 * the connectors had their own queue keeps calling them on the workflow's queue with the old options.
 */
export function connectorActivities(): { page: Activities; run: Activities } {
  if (!patched('connector-task-queue')) {
    const shared = proxyActivities<Activities>(sharedQueueOptions);
    return { page: shared, run: shared };
  }
  const taskQueue = connectorTaskQueue(workflowInfo().taskQueue);
  return {
    page: proxyActivities<Activities>({ ...pageOptions, taskQueue }),
    run: proxyActivities<Activities>({ ...runOptions, taskQueue }),
  };
}
