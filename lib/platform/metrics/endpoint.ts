import cluster from 'node:cluster';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AggregatorRegistry, type Registry } from 'prom-client';
import { closeServer } from '../close-server.js';
import type { Logger } from '../logger.js';

export interface MetricsEndpointSettings {
  host: string;
  /** 0 picks a free port. */
  port: number;
}

/** Where a process's metrics are read, in the Prometheus text format. */
export interface MetricsSource {
  contentType: string;
  text(): Promise<string>;
}

export interface MetricsEndpoint {
  /** `http://host:port/metrics`. */
  url: string;
  close(): Promise<void>;
}

/**
 * Serves `GET /metrics` on a port of its own (the public port never shows them). A port already
 * taken is logged as an error and the process goes on without the endpoint: metrics are not worth
 * an outage, and Prometheus reports the target as down.
 */
export function serveMetrics(
  source: MetricsSource,
  settings: MetricsEndpointSettings,
  logger: Logger,
): Promise<MetricsEndpoint | undefined> {
  const server = createServer((request, response) => {
    if (request.method !== 'GET' || request.url?.split('?')[0] !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found: GET /metrics\n');
      return;
    }
    source.text().then(
      (text) => response.writeHead(200, { 'content-type': source.contentType }).end(text),
      (error: Error) => {
        logger.error({ err: { message: error.message } }, 'metrics could not be collected');
        response.writeHead(500, { 'content-type': 'text/plain' }).end('Metrics could not be collected.\n');
      },
    );
  });
  return new Promise((resolve) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      logger.error({ err: { message: error.message }, port: settings.port }, 'metrics endpoint not started');
      resolve(undefined);
    });
    server.listen(settings.port, settings.host, () => {
      const { address, port } = server.address() as AddressInfo;
      const url = `http://${address.includes(':') ? `[${address}]` : address}:${port}/metrics`;
      logger.info({ url }, 'metrics endpoint listening');
      resolve({ url, close: () => closeServer(server) });
    });
  });
}

/**
 * A process's registry, exposed: on its own endpoint, or, in a process of a node:cluster (API
 * processes sharing one port), handed to the cluster's primary, which serves every process's
 * metrics together on the one port (`serveClusterMetrics`).
 */
export function exposeRegistry(
  registry: Registry,
  settings: MetricsEndpointSettings,
  logger: Logger,
): Promise<MetricsEndpoint | undefined> {
  if (cluster.isWorker) {
    // Constructing one is what makes this process answer the primary's requests.
    new AggregatorRegistry();
    AggregatorRegistry.setRegistries([registry]);
    return Promise.resolve(undefined);
  }
  return serveMetrics({ contentType: registry.contentType, text: () => registry.metrics() }, settings, logger);
}

/** For a node:cluster primary: the metrics of all its processes, summed (gauges as each metric says). */
export function serveClusterMetrics(settings: MetricsEndpointSettings, logger: Logger): Promise<MetricsEndpoint | undefined> {
  const aggregator = new AggregatorRegistry();
  return serveMetrics({ contentType: aggregator.contentType, text: () => aggregator.clusterMetrics() }, settings, logger);
}
