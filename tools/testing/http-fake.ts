/**
 * The HTTP scaffold every fake service here stands on: a server on 127.0.0.1 at a free port that
 * closes without waiting for the client's keep-alive connections, a request's body read whole, and
 * (for fakes that answer each request with one status, headers and body) the answer sent and
 * handed to the fake's own record first. What a fake answers, and how it words its errors, stays
 * the fake's.
 */
import { createServer, type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HttpFake {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  url: string;
  /** Cuts open connections (an SDK's keep-alive ones included), so closing never waits on a client; a second call does nothing. */
  close(): Promise<void>;
}

/** Serves `handle` on 127.0.0.1 at a free port. */
export async function startHttpFake(handle: (request: IncomingMessage, response: ServerResponse) => void): Promise<HttpFake> {
  const server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        if (!server.listening) return resolve();
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** A request's body, whole, as UTF-8 text. */
export async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** One answer of a fake: a string body goes out as it is (the HTML page a gateway sends), anything else as JSON. */
export interface FakeAnswer {
  status: number;
  headers?: OutgoingHttpHeaders;
  body: unknown;
}

/**
 * Serves a fake that answers each request with one `FakeAnswer`. `answer` decides it from the request
 * and its parsed URL; should it throw, `failed` says what goes out instead, so that a bug in a fake
 * shows as an answer the test can read rather than a hang. `answered` hears of every answer before
 * it is sent, for the fake's record of requests. `contentType` is the fake's, as its real service
 * words it (`charset=utf-8` or `UTF-8`): `json` for JSON bodies, `html` for string ones (a fake that
 * never sends one leaves it out).
 */
export function startAnsweringFake<Answer extends FakeAnswer>({
  answer,
  failed,
  answered,
  contentType,
}: {
  answer: (request: IncomingMessage, url: URL) => Answer | Promise<Answer>;
  failed: (error: unknown) => Answer;
  answered?: (request: IncomingMessage, url: URL, answer: Answer) => void;
  contentType: { json: string; html?: string };
}): Promise<HttpFake> {
  return startHttpFake((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    void (async () => {
      let result: Answer;
      try {
        result = await answer(request, url);
      } catch (error) {
        result = failed(error);
      }
      answered?.(request, url, result);
      const html = typeof result.body === 'string';
      response.writeHead(result.status, {
        'content-type': html ? (contentType.html ?? contentType.json) : contentType.json,
        ...result.headers,
      });
      response.end(html ? result.body : JSON.stringify(result.body));
    })();
  });
}
