import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeServer } from '#platform/close-server.js';

export interface HealthListener {
  port: number;
  close(): Promise<void>;
}

/**
 * The worker's probes for an orchestrator, on a port of their own (HEALTH_PORT): `/live` answers
 * 200 while the process runs; `/ready` answers 200 while `ready()` says the worker polls, and 503
 * while it starts or drains. Errors have the API's one shape. The worker serves nothing else.
 */
export async function startHealthListener(options: {
  host: string;
  port: number;
  ready: () => boolean;
}): Promise<HealthListener> {
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://worker').pathname;
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.setHeader('Allow', 'GET, HEAD');
      return answer(response, 405, error('method_not_allowed', `${request.method} is not allowed here.`));
    }
    if (path === '/live') return answer(response, 200, { status: 'live' });
    if (path === '/ready') {
      return options.ready()
        ? answer(response, 200, { status: 'ready' })
        : answer(response, 503, error('unavailable', 'The worker is not polling Temporal: it is starting or shutting down.'));
    }
    return answer(response, 404, error('not_found', 'The worker answers /live and /ready only.'));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () => closeServer(server),
  };
}

function error(code: string, message: string) {
  return { error: { code, message } };
}

function answer(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  response.end(JSON.stringify(body));
}
