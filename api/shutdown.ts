import type { Server } from 'node:http';
import type { Logger } from '#platform/logger.js';

/** How often idle keep-alive connections are closed while draining (each request ends its own). */
const sweepIntervalMs = 100;
/** What closing the clients may take after the drain: the Temporal client waits on calls still retrying. */
export const clientsCloseMs = 5_000;

/** The longest an API process may take to stop: what the orchestrator's kill deadline must exceed. */
export function apiStopDeadlineMs(graceMs: number): number {
  return graceMs + clientsCloseMs;
}

export interface DrainOptions {
  server: Server;
  /** Ends every open event stream with a reconnect hint; answers how many there were. */
  reconnectStreams(): number;
  /** How long open requests may take to finish (SHUTDOWN_GRACE_SECONDS). */
  graceMs: number;
  logger: Logger;
}

/**
 * Drains an API process that was asked to stop: it accepts no new connection, tells every event
 * stream to reconnect (to another process), lets the requests under way finish and answers them
 * with `Connection: close`, and closes each keep-alive connection as soon as it is idle. It resolves
 * once every connection is closed, or at `graceMs`, when the connections left are cut.
 */
export async function drainHttpServer({ server, reconnectStreams, graceMs, logger }: DrainOptions): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  // A request that comes on a connection already open is still answered, then the connection closes.
  server.on('request', (_request, response) => (response.shouldKeepAlive = false));
  server.closeIdleConnections();
  const streams = reconnectStreams();
  logger.info({ streams, graceMs }, 'draining: no new connections; event streams told to reconnect');

  const sweep = setInterval(() => server.closeIdleConnections(), sweepIntervalMs);
  let deadline: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<true>((resolve) => (deadline = setTimeout(() => resolve(true), graceMs)));
  try {
    if (await Promise.race([closed.then(() => false), timedOut])) {
      logger.warn({ graceMs }, 'requests still open at the shutdown deadline: cutting their connections');
      server.closeAllConnections();
      await closed;
    } else {
      logger.info('drained: every request answered');
    }
  } finally {
    clearInterval(sweep);
    clearTimeout(deadline);
  }
}
