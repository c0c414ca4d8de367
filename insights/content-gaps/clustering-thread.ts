import { runClusteringTask, type ClusteringTask } from './clustering-task.js';

/*
 * The thread the content gaps' clustering runs on (a Piscina worker, started by
 * `clustering-runner.ts`): each task an operator's gaps, each result their clusters.
 */

export default function clusterOnThread(task: ClusteringTask) {
  return runClusteringTask(task);
}
