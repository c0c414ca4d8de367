import type { Server } from 'node:http';

/** Stops an HTTP server at once: no new connections, and those open (keep-alive or busy) cut; resolves once closed. */
export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
