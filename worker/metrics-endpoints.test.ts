import { randomBytes, randomUUID } from 'node:crypto';
import test from 'ava';
import { freePort, runEntry } from '#testing/processes.js';
import { eventually } from '#testing/eventually.js';
import { parsePrometheusText } from '#testing/prometheus-text.js';

test("the worker process serves its own metrics and the Temporal SDK's, each on its port", async (t) => {
  const [workerPort, temporalPort] = [await freePort(), await freePort()];
  const worker = runEntry('worker/main.ts', {
    ...process.env,
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    TEMPORAL_TASK_QUEUE: `worker-metrics-${randomUUID()}`,
    REDIS_PREFIX: `test-worker-${randomBytes(4).toString('hex')}`,
    SECRETS_KEY: randomBytes(32).toString('base64'),
    ADMIN_TOKEN: `adm_${randomBytes(24).toString('base64url')}`,
    METRICS_ENABLED: 'true',
    WORKER_METRICS_PORT: String(workerPort),
    TEMPORAL_METRICS_PORT: String(temporalPort),
  });
  try {
    await worker.waitFor(/"msg":"worker started"/);

    const own = parsePrometheusText(await (await fetch(`http://127.0.0.1:${workerPort}/metrics`)).text());
    const names = new Set(own.map((sample) => sample.name));
    t.true(names.has('kb_process_cpu_seconds_total'));
    t.true([...names].every((name) => name.startsWith('kb_')));

    // The SDK reports its pollers and slots once its workers poll.
    const sdk = await eventually(
      async () => parsePrometheusText(await (await fetch(`http://127.0.0.1:${temporalPort}/metrics`)).text()),
      (samples) => samples.some((sample) => sample.name.startsWith('temporal_worker_task_slots_available')),
    );
    const sdkNames = [...new Set(sdk.map((sample) => sample.name))];
    t.true(sdkNames.length > 0 && sdkNames.every((name) => name.startsWith('temporal_')), sdkNames.join(', '));
    t.true(sdkNames.includes('temporal_worker_task_slots_available'), sdkNames.join(', '));
    t.log(`the SDK's metrics: ${sdkNames.sort().join(', ')}`);
  } finally {
    await worker.stop();
  }
  t.is(await worker.exited, 0);
});
