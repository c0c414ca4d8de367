import type { ItemOperation } from './types.js';

/**
 * Every item's workflow and activities run on one task queue, whose tasks Temporal dispatches by
 * priority, and within a priority by tenant (`taskPriority`): one pool of worker slots serves
 * everything, and no backlog holds up what comes before it.
 */
export function ingestTaskQueue(base: string): string {
  return `${base}-ingest`;
}

/**
 * The queues of releases before one queue with priorities (one per `options.priority`): workers
 * still poll them so that item workflows started there finish. An item's workflow ends when its work
 * is done, and a version failing transiently retries for at most seven days: drop them from the
 * release after one that has run that long.
 */
export function formerIngestTaskQueues(base: string): string[] {
  return [`${base}-ingest-high`, `${base}-ingest-low`];
}

/**
 * Temporal's priority keys for ingestion work, the lowest first: a change a person just made (a
 * single item, an article published or withdrawn), then imports given `high`, then imports given
 * `low` (scheduled syncs) and cleanups, then re-indexes.
 */
export const ingestPriorityKeys = { interactive: 1, high: 3, low: 4, reindex: 5 } as const;

/**
 * The priority of an operation's tasks. The fairness key is the tenant: within a priority, Temporal
 * hands out tasks of the tenants that have some in turn, so one tenant's import of thousands delays
 * another tenant's items by its share only, not by its length.
 */
export function taskPriority(tenantId: string, operation: ItemOperation): { priorityKey: number; fairnessKey: string } {
  return { priorityKey: ingestPriorityKeys[workOf(operation)], fairnessKey: tenantId };
}

function workOf(operation: ItemOperation): keyof typeof ingestPriorityKeys {
  if (operation.kind === 'reembed') return 'reindex';
  if (operation.lane === 'interactive') return 'interactive';
  return operation.kind === 'ingest' && operation.options.priority !== 'low' ? 'high' : 'low';
}
