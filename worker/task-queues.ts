import { connectorTaskQueue } from '#workflows/connectors/task-queues.js';
import { formerIngestTaskQueues, ingestTaskQueue } from '#workflows/ingestion/task-queues.js';

/**
 * What a worker process does (`WORKER_ROLE`): everything (`all`, the default); everything but the
 * items' activities (`core`); or the items' activities only (`embedder`: the embedding model's
 * work, deployed and scaled apart, docs/scaling.md). A deployment with embedders runs the rest as
 * `core`: the items' workflows still need a worker, and they are light.
 */
export type WorkerRole = 'all' | 'core' | 'embedder';

export interface PolledQueue {
  taskQueue: string;
  /** Runs the workflows of this queue. */
  workflows: boolean;
  /** Runs the activities of this queue, this many at once (none: runs none). */
  activitySlots?: number;
}

/**
 * The task queues a worker of `role` polls, and for what: the base queue (conversations, cleanups,
 * re-indexes, events, the connectors' workflows); the items' queue, whose tasks Temporal hands out by
 * priority and tenant; the items' queues of the release before, until their workflows end; and the
 * connectors' activities, whose slots are their own (a slow or hostile source holds only those).
 */
export function polledQueues(
  role: WorkerRole,
  base: string,
  slots: { base: number; ingest: number; connectors: number },
): PolledQueue[] {
  const items: PolledQueue = { taskQueue: ingestTaskQueue(base), workflows: role !== 'embedder' };
  if (role !== 'core') items.activitySlots = slots.ingest;
  if (role === 'embedder') return [items];
  return [
    { taskQueue: base, workflows: true, activitySlots: slots.base },
    items,
    ...formerIngestTaskQueues(base).map((taskQueue) => ({ taskQueue, workflows: true, activitySlots: 2 })),
    { taskQueue: connectorTaskQueue(base), workflows: false, activitySlots: slots.connectors },
  ];
}
