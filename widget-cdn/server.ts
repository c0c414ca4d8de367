/** Process entry of the widget file server ({cdn_url}). */
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createLogger } from '#platform/logger.js';
import { loadConfigOrExit, onShutdown } from '#platform/process-entry.js';
import { createCdnApp } from './app.js';

const config = loadConfigOrExit('cdn');
const logger = createLogger({ level: config.logLevel, name: 'cdn' });
const releasesDir = fileURLToPath(new URL('./releases', import.meta.url));

const app = createCdnApp({
  releasesDir,
  apiUrl: config.publicBaseUrl,
  demo: config.env !== 'production' && { questions: config.demoQuestions },
});
app.on('error', (error) => logger.error({ err: error }, 'widget file request failed'));

const server = app.listen(config.cdnPort, config.host, () => {
  const { address, port } = server.address() as AddressInfo;
  logger.info({ url: `http://${address}:${port}`, releasesDir, apiUrl: config.publicBaseUrl }, 'widget files listening');
});

onShutdown(logger, () => new Promise((resolve) => server.close(resolve)));
