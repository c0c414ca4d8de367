/**
 * Dynamic configuration both local Temporal profiles run with.
 * - One partition per task queue: with a handful of pollers, the default four partitions leave
 *   tasks waiting in partitions no poller is on; one partition matches every task at once (a
 *   single partition carries far more than this service's per-queue rate).
 * - Eager activities: the worker that completes a workflow task may take the activity it
 *   schedules in the same round trip, saving the server a dispatch per item.
 */
export const temporalDynamicConfig: Record<string, number | boolean> = {
  'matching.numTaskqueueReadPartitions': 1,
  'matching.numTaskqueueWritePartitions': 1,
  'system.enableActivityEagerExecution': true,
};
