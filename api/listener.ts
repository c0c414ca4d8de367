import type { Server } from 'node:http';
import { answerClientErrors } from './client-errors.js';

/**
 * How long an idle keep-alive connection stays open: longer than the clients and load balancers in
 * front keep theirs (60 s is the common balancer default; Node's own 5 s is shorter than most). The
 * side that closes an idle connection first races the other side reusing it, and a request sent on a
 * connection the server is closing fails with a reset instead of an answer; clients read the
 * `Keep-Alive: timeout=65` header and let the connection go before the server does.
 */
export const keepAliveMs = 65_000;

/** The API's HTTP listener as the server entry and the test API both run it. */
export function prepareListener(server: Server): Server {
  answerClientErrors(server);
  server.keepAliveTimeout = keepAliveMs;
  // Node wants the headers' deadline beyond the keep-alive's, so a reused connection is never cut mid-request.
  server.headersTimeout = keepAliveMs + 1_000;
  return server;
}
