import { startThread, type Thread } from '#platform/threads/thread.js';
import {
  runClusteringTask,
  type ClusterGaps,
  type ClusteringOutcome,
  type ClusteringStore,
  type ClusteringTask,
  type ClusteringThreadOptions,
} from './clustering-task.js';

/**
 * The worker's clustering thread, one per process, started by its first task (most workers never
 * cluster, and a thread loads its modules and opens its connection before its first task): clustering
 * 50,000 gaps takes seconds of CPU, and loading them 125 MB of JSON, which on the event loop would stall
 * every other activity of the worker (heartbeats, a conversation's answers). The thread loads, clusters
 * and stores through a Redis connection of its own (`options`), so only a task's name and its counts
 * cross. Tasks queue for the thread in order; `close` ends it, and its connection with it.
 */
export function clusteringThread(options: ClusteringThreadOptions): { cluster: ClusterGaps; close(): Promise<void> } {
  let thread: Thread<ClusteringTask, ClusteringOutcome> | undefined;
  return {
    cluster: (task) => (thread ??= startThread(new URL('./clustering-thread', import.meta.url), options)).run(task),
    close: async () => thread?.close(),
  };
}

/** The same clustering on the caller's thread, through its store (tests, tools): it blocks the event loop while it runs. */
export function clusterInProcess(store: ClusteringStore): ClusterGaps {
  return (task) => runClusteringTask(store, task);
}
