import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { statusError } from './errors.js';

/**
 * Answers what Node's HTTP parser refuses before Koa sees the request (a request line and headers
 * over Node's 16 KB, a malformed request) in the one error shape, where Node would write a bare
 * status line. A socket already gone, or one that never sent a whole request, is just closed.
 */
export function answerClientErrors(server: Server): Server {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (!socket.writable || error.code === 'ECONNRESET' || error.code === 'HPE_INVALID_EOF_STATE') {
      socket.destroy();
      return;
    }
    const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
    const body = JSON.stringify(statusError(status).toBody());
    socket.end(
      [
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
        'Content-Type: application/json; charset=utf-8',
        `Content-Length: ${Buffer.byteLength(body)}`,
        'Connection: close',
        '',
        body,
      ].join('\r\n'),
    );
  });
  return server;
}
