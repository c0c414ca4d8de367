import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Test helper only (not exported from index.ts): a local server that records requests and plays a script. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

export interface ScriptedResponse {
  status: number;
  body?: unknown;
  /** Sent as is, not JSON-encoded. */
  rawBody?: string;
  headers?: Record<string, string>;
}

export interface TestServer {
  baseUrl: string;
  requests: RecordedRequest[];
  /** Answers to play in order; when they run out `fallback` decides. */
  script: ScriptedResponse[];
  close(): Promise<void>;
}

export async function startTestServer(fallback: (request: RecordedRequest) => ScriptedResponse): Promise<TestServer> {
  const requests: RecordedRequest[] = [];
  const script: ScriptedResponse[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const recorded: RecordedRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: text ? JSON.parse(text) : undefined,
      };
      requests.push(recorded);
      const answer = script.shift() ?? fallback(recorded);
      const payload = answer.rawBody ?? (answer.body === undefined ? '' : JSON.stringify(answer.body));
      res.writeHead(answer.status, {
        ...(answer.rawBody === undefined ? { 'content-type': 'application/json' } : {}),
        ...answer.headers,
      });
      res.end(payload);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    script,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** Answers the ingestion routes the way the service does: job ids are `${integrationId}-${externalId}`. */
export function ingestionFallback(request: RecordedRequest): ScriptedResponse {
  const body = request.body as {
    items?: Array<{ integrationId: string; externalId: string }>;
    integrationId?: string;
    externalId?: string;
    keepExternalIds?: string[];
  };
  if (request.path === '/ingest/bulk') {
    const items = body.items ?? [];
    return {
      status: 200,
      body: {
        status: 'queued',
        jobCount: items.length,
        estimatedTime: `${Math.ceil(items.length / 10)}s`,
        jobIds: items.map((item) => `${item.integrationId}-${item.externalId}`),
      },
    };
  }
  if (request.path === '/ingest')
    return { status: 200, body: { status: 'queued', jobId: `${body.integrationId}-${body.externalId}` } };
  if (request.path === '/ingest/cleanup') return { status: 200, body: { deleted: 2, orphanedExternalIds: ['gone-1', 'gone-2'] } };
  return { status: 404, body: { error: { code: 'not_found', message: 'No such route.' } } };
}
