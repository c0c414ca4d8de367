/**
 * Process entry of the REST API: configuration, then the wired app, then the listener. With the
 * worker entry, the only code that reads the environment.
 */
import type { AddressInfo } from 'node:net';
import { createLogger } from '#platform/logger.js';
import { loadConfigOrExit, onShutdown } from '#platform/process-entry.js';
import { serviceVersion } from '#platform/version.js';
import { startProcessTelemetry } from '#platform/telemetry.js';
import { prepareListener } from './listener.js';
import { drainHttpServer } from './shutdown.js';

const config = loadConfigOrExit('api');
// The wiring, and every library and client it loads, only once the configuration holds: a bad variable
// stops the process at once instead of after seconds of loading.
const { wireApi } = await import('./wiring.js');
const logger = createLogger({ level: config.logLevel, name: 'api' });
const telemetry = await startProcessTelemetry(
  config.telemetry,
  { serviceName: 'kb-api', port: config.telemetry.metrics.apiPort },
  logger,
);
const api = await wireApi(config, logger, telemetry);

const server = prepareListener(
  api.app.listen(config.port, config.host, () => {
    const { address, port } = server.address() as AddressInfo;
    logger.info({ url: `http://${address}:${port}`, version: serviceVersion }, 'api listening');
  }),
);

onShutdown(logger, async () => {
  await drainHttpServer({ server, reconnectStreams: api.reconnectStreams, graceMs: config.shutdownGraceMs, logger });
  await api.close();
  await telemetry.close();
});
