/**
 * The baseline's worker process: the same slots per process as the ingestion worker, running
 * `benchNoopWorkflow`, whose activity only increments a Redis counter.
 * Environment: TEMPORAL_ADDRESS, REDIS_URL, BENCH_TASK_QUEUE, BENCH_COUNTER_KEY, INGEST_CONCURRENCY (its activity slots).
 */
import { fileURLToPath } from 'node:url';
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { createClient } from 'redis';
import type { NoopActivities } from './noop-workflow.js';

const env = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
};

Runtime.install({ logger: new DefaultLogger('WARN') });
const redis = createClient({ url: env('REDIS_URL') });
await redis.connect();
const counterKey = env('BENCH_COUNTER_KEY');
const connection = await NativeConnection.connect({ address: env('TEMPORAL_ADDRESS') });
const activities: NoopActivities = {
  async benchNoop() {
    await redis.incr(counterKey);
  },
};
const worker = await Worker.create({
  connection,
  taskQueue: env('BENCH_TASK_QUEUE'),
  workflowsPath: fileURLToPath(new URL('./noop-workflow.ts', import.meta.url)),
  activities,
  maxConcurrentActivityTaskExecutions: Number(env('INGEST_CONCURRENCY')),
});
await worker.run();
await redis.quit();
await connection.close();
