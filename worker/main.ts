/**
 * Process entry of a Temporal worker: it runs the workflows and activities of the service. Scale
 * out by starting more of these; each polls the same task queues.
 */
import { DefaultLogger, type LogLevel } from '@temporalio/worker';
import { createLogger, type Logger } from '#platform/logger.js';
import { loadConfigOrExit } from '#platform/process-entry.js';
import { connectWorker } from '#platform/temporal.js';
import { startProcessTelemetry } from '#platform/telemetry.js';
import { ensureSearchAttributes } from './search-attributes.js';
import { startHealthListener } from './health-listener.js';
import { watchEarlyShutdown } from './shutdown.js';
import { installRuntime } from './temporal-runtime.js';
import { wireWorker, type WiredWorker } from './wiring.js';

const config = loadConfigOrExit('worker');
const logger = createLogger({ level: config.logLevel, name: 'worker' });
// The SDK's shutdown signals (SIGINT, SIGTERM) drain the workers (worker/shutdown.ts), so that `run()` returns.
installRuntime({ logger: sdkLogger(logger) }, config.telemetry.metrics, logger);
const early = watchEarlyShutdown();
const telemetry = await startProcessTelemetry(
  config.telemetry,
  { serviceName: 'kb-worker', port: config.telemetry.metrics.workerPort },
  logger,
);

let worker: WiredWorker | undefined;
// Up from the start, so that a slow start (the model, the bundle) reads as alive but not ready.
const health =
  config.healthPort === undefined
    ? undefined
    : await startHealthListener({ host: config.host, port: config.healthPort, ready: () => worker?.ready() ?? false });

const connection = await connectWorker(config.temporal, logger);
const registered = await ensureSearchAttributes(connection, config.temporal.namespace);
if (registered.length > 0) logger.info({ registered }, 'registered search attributes');

worker = await wireWorker(config, logger, connection, telemetry);
early.stop();
logger.info(
  { taskQueue: config.temporal.taskQueue, namespace: config.temporal.namespace, healthPort: health?.port },
  'worker started',
);
try {
  if (!early.requested) await worker.run();
} finally {
  await worker.close();
  await connection.close();
  await health?.close();
  await telemetry.close();
  logger.info('worker stopped');
}

/** SDK and core logs, in the same JSON log as everything else. */
function sdkLogger(log: Logger): DefaultLogger {
  const levels: Record<LogLevel, 'trace' | 'debug' | 'info' | 'warn' | 'error'> = {
    TRACE: 'trace',
    DEBUG: 'debug',
    INFO: 'info',
    WARN: 'warn',
    ERROR: 'error',
  };
  return new DefaultLogger('WARN', ({ level, message, meta }) => log[levels[level]]({ sdk: meta }, message));
}
