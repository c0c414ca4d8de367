import { join } from 'node:path';
import pLimit from 'p-limit';
import { startTsProcess } from '#deploy/local/app-processes.js';
import { waitFor, type MeasuredStack } from './measured-stack.js';

/**
 * The limit a benchmark compares itself with, on its own stack and in the same run: `workflows`
 * workflows that each run one no-op activity (`tools/bench/noop-workflow.ts`, which only counts itself in
 * Redis), started 32 at a time, on `processes` worker processes of their own with `activitySlots`
 * activity slots each (by default the stack's INGEST_CONCURRENCY, the ingestion workers' slots).
 * Returns the seconds from the first start to the last one counted, and the rate.
 */
export async function measureNoopLimit(
  stack: MeasuredStack,
  { workflows, processes, activitySlots }: { workflows: number; processes: number; activitySlots?: number },
): Promise<{ seconds: number; perSecond: number }> {
  const { prefix, env, temporal, redis } = stack;
  const counterKey = `${prefix}:noop-done`;
  const noopQueue = `${prefix}-noop`;
  const workers = Array.from({ length: processes }, (_, i) =>
    startTsProcess(
      `noop-worker-${i + 1}`,
      [join('tools', 'bench', 'noop-worker.ts')],
      {
        ...env,
        BENCH_TASK_QUEUE: noopQueue,
        BENCH_COUNTER_KEY: counterKey,
        INGEST_CONCURRENCY: String(activitySlots ?? env.INGEST_CONCURRENCY ?? 8),
      },
      stack.plan.paths,
    ),
  );
  const stopWorkers = () => Promise.all(workers.map((worker) => worker.stop())).then(() => undefined);
  stack.track({ stop: stopWorkers });
  try {
    const started = performance.now();
    const startLimit = pLimit(32);
    await Promise.all(
      Array.from({ length: workflows }, (_, i) =>
        startLimit(() =>
          temporal.workflow.start('benchNoopWorkflow', { workflowId: `${prefix}-noop-${i}`, taskQueue: noopQueue, args: [] }),
        ),
      ),
    );
    await waitFor(async () => Number(await redis.get(counterKey)) >= workflows, 250);
    const seconds = (performance.now() - started) / 1000;
    return { seconds, perSecond: workflows / seconds };
  } finally {
    await stopWorkers();
  }
}
