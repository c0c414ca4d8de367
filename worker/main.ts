/**
 * Process entry of a Temporal worker: it runs the workflows and activities of the service. Scale
 * out by starting more of these; each polls the same task queue.
 */
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DefaultLogger, Runtime, Worker, type LogLevel } from '@temporalio/worker';
import { createActivities } from '#activities/index.js';
import { createLogger, type Logger } from '#platform/logger.js';
import { loadConfigOrExit } from '#platform/process-entry.js';
import { connectInBackground, createRedisClient } from '#platform/redis.js';
import { connectWorker } from '#platform/temporal.js';
import { createWeaviateClient } from '#platform/weaviate.js';
import { ensureSearchAttributes } from './search-attributes.js';

const config = loadConfigOrExit('worker');
const logger = createLogger({ level: config.logLevel, name: 'worker' });
// The SDK's shutdown signals (SIGINT, SIGTERM) drain the worker, so that `worker.run()` returns.
Runtime.install({ logger: sdkLogger(logger) });

const connection = await connectWorker(config.temporal, logger);
const registered = await ensureSearchAttributes(connection, config.temporal.namespace);
if (registered.length > 0) logger.info({ registered }, 'registered search attributes');

const redis = createRedisClient(config.redis.url, logger);
connectInBackground(redis, logger);
const weaviate = await createWeaviateClient(config.weaviate);

const worker = await Worker.create({
  connection,
  namespace: config.temporal.namespace,
  taskQueue: config.temporal.taskQueue,
  // The same extension as this file: .ts under tsx, .js once compiled.
  workflowsPath: fileURLToPath(new URL(`../workflows/index${extname(fileURLToPath(import.meta.url))}`, import.meta.url)),
  activities: createActivities({ logger, redis, weaviate }),
});

logger.info({ taskQueue: config.temporal.taskQueue, namespace: config.temporal.namespace }, 'worker started');
try {
  await worker.run();
} finally {
  await Promise.allSettled([redis.isOpen ? redis.quit() : undefined, weaviate.close(), connection.close()]);
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
  return new DefaultLogger('INFO', ({ level, message, meta }) => log[levels[level]]({ sdk: meta }, message));
}
