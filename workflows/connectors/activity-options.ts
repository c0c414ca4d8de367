import type { ActivityOptions } from '@temporalio/workflow';

/**
 * Options of the connectors' activities. Each call reads one page of the source and sends it to the
 * ingestion API, heartbeating while it works: a worker that goes away is noticed within the
 * heartbeat timeout and the page is read again elsewhere (sending a page twice is harmless, since
 * items are keyed by their external id). A source that stays unreachable fails the run after about
 * ten minutes; the schedule tries again at its next time.
 */
export const connectorActivityOptions: ActivityOptions = {
  startToCloseTimeout: '15 minutes',
  heartbeatTimeout: '30 seconds',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '2 minutes', maximumAttempts: 8 },
};
