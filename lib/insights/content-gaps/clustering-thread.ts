import { workerData } from 'node:worker_threads';
import { createLogger } from '#platform/logger.js';
import { madeOnce } from '#platform/made-once.js';
import { createRedisClient } from '#platform/redis.js';
import {
  runClusteringTask,
  type ClusteringOutcome,
  type ClusteringTask,
  type ClusteringThreadOptions,
} from './clustering-task.js';
import { createContentGapStore } from './store.js';

/*
 * The thread the content gaps' clustering runs on (a Piscina worker, started by
 * `clustering-runner.ts`): each task names an operator, whose gaps the thread loads from Redis,
 * clusters and stores, through a Redis connection of its own, opened from the options the runner
 * passes in (`ClusteringThreadOptions`, as `workerData`) at the first task. The connection ends with
 * the thread.
 */

const { redisUrl, prefix, logLevel } = workerData as ClusteringThreadOptions;
const redis = createRedisClient(redisUrl, createLogger({ level: logLevel, name: 'clustering-thread' }));
const store = createContentGapStore(redis, prefix);
// Once: the client reconnects by itself after; a first connection that failed is tried again by the next task.
const connected = madeOnce(() => redis.connect());

export default async function clusterOnThread(task: ClusteringTask): Promise<ClusteringOutcome> {
  await connected();
  return runClusteringTask(store, task);
}
