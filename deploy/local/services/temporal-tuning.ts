/**
 * Dynamic configuration both local Temporal profiles run with.
 * - One partition per task queue: with a handful of pollers, the default four partitions leave
 *   tasks waiting in partitions no poller is on; one partition matches every task at once (a
 *   single partition carries far more than this service's per-queue rate).
 * - Eager activities: the worker that completes a workflow task may take the activity it
 *   schedules in the same round trip, saving the server a dispatch per item.
 * - Priority and fairness (off by default in this server version): tasks carry a priority key and a
 *   fairness key (workflows/ingestion/task-queues.ts), and the matcher hands out the most urgent
 *   first and, within a priority, the fairness keys (tenants) in turn.
 */
export const temporalDynamicConfig: Record<string, number | boolean> = {
  'matching.numTaskqueueReadPartitions': 1,
  'matching.numTaskqueueWritePartitions': 1,
  'system.enableActivityEagerExecution': true,
  'matching.useNewMatcher': true,
  'matching.enableFairness': true,
};
