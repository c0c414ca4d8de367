import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import type { TestFn } from 'ava';
import type { Config } from '#platform/config.js';
import { createLogger } from '#platform/logger.js';
import type { Telemetry } from '#platform/telemetry.js';
import { wireWorker, type WiredWorker } from '#worker/wiring.js';
import { testWorkflowBundle } from './workflow-bundle.js';

export interface TestWorker {
  /** The worker's metrics registry, as its endpoint serves it. */
  metrics: WiredWorker['metrics'];
  stop(): Promise<void>;
}

let runtimeInstalled = false;

/** The SDK's own logs only for errors (failed activities are expected in tests); no signal handlers. */
export function installQuietRuntime(): void {
  if (runtimeInstalled) return;
  Runtime.install({ logger: new DefaultLogger('ERROR'), shutdownSignals: [] });
  runtimeInstalled = true;
}

/** The real worker, wired as the worker entry wires it, in this process, on the config's task queues. */
export async function startTestWorker(config: Config, telemetry: Partial<Telemetry> = {}): Promise<TestWorker> {
  installQuietRuntime();
  const connection = await NativeConnection.connect({ address: config.temporal.address });
  const logger = createLogger({ level: config.logLevel, name: 'worker-test' });
  const bundle = testWorkflowBundle({ tracing: telemetry.tracing !== undefined });
  const worker = await wireWorker(config, logger, connection, telemetry, bundle);
  const running = worker.run();
  return {
    metrics: worker.metrics,
    async stop() {
      worker.shutdown();
      await running;
      await worker.close();
      await closeWhenReleased(connection);
    },
  };
}

/**
 * Closes the connection once the Temporal workers that ran on it have let go of it: a worker's `run()`
 * resolves a moment before its native side drops its reference, and closing in that moment is refused
 * ("Worker still in use: Expected 1 reference, but got 2"). Tried again for a few seconds, then refused.
 */
async function closeWhenReleased(connection: NativeConnection): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await connection.close();
      return;
    } catch (error) {
      if (attempt >= 50 || !(error instanceof Error) || !/still in use/i.test(error.message)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/**
 * What a file of workflow-logic tests needs of Temporal (the server the tests run against): the
 * workflows bundled once, a connection for its workers and a client, opened before its tests and
 * closed after them. Each test runs its own worker, on a task queue of its own, with the activities
 * it stands in for.
 */
export function useWorkflowTestBed(test: TestFn) {
  let bed: { bundle: WorkflowBundleWithSourceMap; nativeConnection: NativeConnection; connection: Connection } | undefined;
  test.before(async () => {
    installQuietRuntime();
    const address = process.env.TEMPORAL_ADDRESS ?? '127.0.0.1:7233';
    bed = {
      bundle: await testWorkflowBundle(),
      nativeConnection: await NativeConnection.connect({ address }),
      connection: await Connection.connect({ address }),
    };
  });
  test.after.always(async () => {
    await bed?.connection.close();
    await bed?.nativeConnection.close();
  });
  const opened = () => {
    if (!bed) throw new Error('The workflow test bed is used before its test.before hook ran.');
    return bed;
  };
  let client: Client | undefined;
  return {
    bundle: () => opened().bundle,
    client: () => (client ??= new Client({ connection: opened().connection })),
    /** A worker of the bundled workflows and the given activities on `taskQueue`. */
    worker: (taskQueue: string, activities: object) =>
      Worker.create({ connection: opened().nativeConnection, taskQueue, workflowBundle: opened().bundle, activities }),
  };
}
