import { startThread } from '#platform/threads/thread.js';
import { runClusteringTask, type ClusterGaps, type ClusteringResult, type ClusteringTask } from './clustering-task.js';

/**
 * The worker's clustering thread, started once per process: clustering 50,000 gaps takes seconds of
 * CPU, which on the event loop would stall every other activity of the worker (heartbeats, a
 * conversation's answers). Tasks queue for the thread in order; `close` ends it.
 */
export function startClusteringThread(): { cluster: ClusterGaps; close(): Promise<void> } {
  const thread = startThread<ClusteringTask, ClusteringResult>(new URL('./clustering-thread', import.meta.url), {});
  return { cluster: (task) => thread.run(task), close: () => thread.close() };
}

/** The same clustering on the caller's thread (tests, tools): it blocks the event loop while it runs. */
export const clusterInProcess: ClusterGaps = async (task) => runClusteringTask(task);
