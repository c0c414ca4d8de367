import { DefaultLogger, NativeConnection, Runtime } from '@temporalio/worker';
import type { Config } from '#platform/config.js';
import { createLogger } from '#platform/logger.js';
import { wireWorker } from '#worker/wiring.js';

export interface TestWorker {
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
export async function startTestWorker(config: Config): Promise<TestWorker> {
  installQuietRuntime();
  const connection = await NativeConnection.connect({ address: config.temporal.address });
  const worker = await wireWorker(config, createLogger({ level: config.logLevel, name: 'worker-test' }), connection);
  const running = worker.run();
  return {
    async stop() {
      worker.shutdown();
      await running;
      await worker.close();
      await connection.close();
    },
  };
}
