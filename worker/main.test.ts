import { randomBytes, randomUUID } from 'node:crypto';
import { Connection } from '@temporalio/client';
import test from 'ava';
import proto from '@temporalio/proto';
import { searchAttributeKeys } from '#workflows/search-attributes.js';
import { eventually } from '#testing/eventually.js';
import { runEntry } from '#testing/processes.js';

const { TaskQueueType } = proto.temporal.api.enums.v1;

test('the worker process connects, registers the search attributes and polls its task queue', async (t) => {
  const taskQueue = `worker-start-${randomUUID()}`;
  const namespace = process.env.TEMPORAL_NAMESPACE ?? 'default';
  const worker = runEntry('worker/main.ts', {
    ...process.env,
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    TEMPORAL_TASK_QUEUE: taskQueue,
    REDIS_PREFIX: `test-worker-${randomBytes(4).toString('hex')}`,
    SECRETS_KEY: randomBytes(32).toString('base64'),
    ADMIN_TOKEN: `adm_${randomBytes(24).toString('base64url')}`,
  });
  const connection = await Connection.connect({ address: process.env.TEMPORAL_ADDRESS ?? '127.0.0.1:7233' });
  try {
    await worker.waitFor(/"msg":"worker started"/);

    const { customAttributes } = await connection.operatorService.listSearchAttributes({ namespace });
    for (const key of searchAttributeKeys) t.truthy(customAttributes?.[key.name], `${key.name} is registered`);

    const pollers = await eventually(
      async () => {
        const description = await connection.workflowService.describeTaskQueue({
          namespace,
          taskQueue: { name: taskQueue },
          taskQueueType: TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW,
        });
        return description.pollers?.length ?? 0;
      },
      (count) => count > 0,
      { timeoutMs: 30_000, intervalMs: 250 },
    );
    t.true(pollers > 0, 'the worker polls its task queue');

    await worker.stop();
    t.is(await worker.exited, 0);
    t.regex(worker.output(), /"msg":"worker stopped"/);
  } finally {
    await worker.stop();
    await connection.close();
  }
});
