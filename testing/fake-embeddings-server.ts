import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for OpenAI's embeddings API on 127.0.0.1, for tests that need real HTTP: same routes,
 * status codes, error bodies and headers as the real service, with failures scripted per request.
 * Vectors are derived from each text's hash, so the same text always gets the same unit vector.
 */
export interface FakeEmbeddingsServer {
  /** Ends in /v1, as the SDK's baseURL does. */
  baseUrl: string;
  /** Every request that reached POST /v1/embeddings with the right key, in order, failed ones included. */
  calls: FakeEmbeddingsCall[];
  /** The next `count` authorised requests fail with `status` (429 and 5xx get OpenAI's bodies). */
  failNext(count: number, status: number, options?: { retryAfterSeconds?: number; retryAfterMs?: number }): void;
  /** The next `count` requests are answered only after `ms`, to make clients time out. */
  delayNext(count: number, ms: number): void;
  /** From now on, vectors have `n` dimensions whatever was asked, as a misconfigured model would. */
  respondWithDimensions(n: number): void;
  close(): Promise<void>;
}

export interface FakeEmbeddingsCall {
  model: string | undefined;
  inputCount: number;
  encodingFormat: string;
  dimensions: number | undefined;
  status: number;
}

interface ScriptedFailure {
  status: number;
  retryAfterSeconds?: number;
  retryAfterMs?: number;
}

const maxInputs = 2048;

export async function startFakeEmbeddingsServer(options: { apiKey: string; dimensions: number }): Promise<FakeEmbeddingsServer> {
  const calls: FakeEmbeddingsCall[] = [];
  const failures: ScriptedFailure[] = [];
  const delays: number[] = [];
  let forcedDimensions: number | undefined;

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const body = await readBody(request);
    const delay = delays.shift();
    if (delay !== undefined) await new Promise((resolve) => setTimeout(resolve, delay));
    if (response.destroyed) return;

    const path = new URL(request.url ?? '/', 'http://fake').pathname;
    if (request.method !== 'POST' || path !== '/v1/embeddings') {
      return sendError(response, 404, `Invalid URL (${request.method} ${path})`, 'invalid_request_error');
    }
    const bearer = /^Bearer (.*)$/.exec(request.headers.authorization ?? '')?.[1];
    if (bearer !== options.apiKey) {
      const message = bearer
        ? `Incorrect API key provided: ${maskKey(bearer)}. You can find your API key at https://platform.openai.com/account/api-keys.`
        : "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).";
      return sendError(response, 401, message, 'invalid_request_error', bearer ? 'invalid_api_key' : null);
    }

    let params: Record<string, unknown>;
    try {
      params = JSON.parse(body);
    } catch {
      return sendError(response, 400, 'We could not parse the JSON body of your request.', 'invalid_request_error');
    }
    const inputs = typeof params.input === 'string' ? [params.input] : params.input;
    const encodingFormat = params.encoding_format === undefined ? 'float' : String(params.encoding_format);
    const requested = params.dimensions;
    const call: FakeEmbeddingsCall = {
      model: typeof params.model === 'string' ? params.model : undefined,
      inputCount: Array.isArray(inputs) ? inputs.length : 0,
      encodingFormat,
      dimensions: typeof requested === 'number' ? requested : undefined,
      status: 200,
    };
    calls.push(call);
    const fail = (status: number, message: string, type: string, code: string | null = null, param: string | null = null) => {
      call.status = status;
      sendError(response, status, message, type, code, param);
    };

    const failure = failures.shift();
    if (failure) {
      if (failure.retryAfterSeconds !== undefined) response.setHeader('retry-after', String(failure.retryAfterSeconds));
      if (failure.retryAfterMs !== undefined) response.setHeader('retry-after-ms', String(failure.retryAfterMs));
      if (failure.status === 429) {
        return fail(
          429,
          `Rate limit reached for ${call.model} on requests per min (RPM). Please try again in 1s.`,
          'requests',
          'rate_limit_exceeded',
        );
      }
      if (failure.status >= 500) {
        return fail(failure.status, 'The server had an error while processing your request. Sorry about that!', 'server_error');
      }
      return fail(failure.status, `Scripted failure with status ${failure.status}.`, 'invalid_request_error');
    }

    if (call.model === undefined) {
      return fail(400, 'you must provide a model parameter', 'invalid_request_error');
    }
    if (params.input === undefined) {
      return fail(400, "'input' is a required property", 'invalid_request_error');
    }
    if (
      !Array.isArray(inputs) ||
      inputs.length === 0 ||
      inputs.length > maxInputs ||
      inputs.some((text) => typeof text !== 'string' || text === '')
    ) {
      return fail(
        400,
        "'$.input' is invalid. Please check the API reference: https://platform.openai.com/docs/api-reference.",
        'invalid_request_error',
      );
    }
    if (encodingFormat !== 'float' && encodingFormat !== 'base64') {
      return fail(
        400,
        `'${encodingFormat}' is not one of ['float', 'base64'] - 'encoding_format'`,
        'invalid_request_error',
        null,
        'encoding_format',
      );
    }
    if (requested !== undefined && (!Number.isInteger(requested) || (requested as number) < 1)) {
      return fail(400, 'Invalid value for dimensions: must be a positive integer.', 'invalid_request_error', null, 'dimensions');
    }

    const size = forcedDimensions ?? (requested as number | undefined) ?? options.dimensions;
    const tokens = (inputs as string[]).reduce((sum, text) => sum + Math.ceil(text.length / 4), 0);
    sendJson(response, 200, {
      object: 'list',
      data: (inputs as string[]).map((text, index) => {
        const vector = vectorFor(text, size);
        return { object: 'embedding', index, embedding: encodingFormat === 'base64' ? toBase64(vector) : Array.from(vector) };
      }),
      model: call.model,
      usage: { prompt_tokens: tokens, total_tokens: tokens },
    });
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) sendError(response, 500, String(error), 'server_error');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    calls,
    failNext(count, status, { retryAfterSeconds, retryAfterMs } = {}) {
      for (let i = 0; i < count; i++) failures.push({ status, retryAfterSeconds, retryAfterMs });
    },
    delayNext(count, ms) {
      for (let i = 0; i < count; i++) delays.push(ms);
    },
    respondWithDimensions(n) {
      forcedDimensions = n;
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function sendError(
  response: ServerResponse,
  status: number,
  message: string,
  type: string,
  code: string | null = null,
  param: string | null = null,
) {
  sendJson(response, status, { error: { message, type, param, code } });
}

function sendJson(response: ServerResponse, status: number, body: unknown) {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

/** As OpenAI quotes a wrong key: a few characters at each end. */
function maskKey(key: string): string {
  return key.length > 8 ? `${key.slice(0, 3)}${'*'.repeat(12)}${key.slice(-4)}` : '*'.repeat(key.length);
}

/** A unit vector seeded by the text's FNV-1a hash (xorshift32 for the components). */
function vectorFor(text: string, dimensions: number): Float32Array {
  let state = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) state = Math.imul(state ^ text.charCodeAt(i), 0x01000193);
  state ||= 1;
  const vector = new Float32Array(dimensions);
  let sum = 0;
  for (let i = 0; i < dimensions; i++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    vector[i] = (state >>> 0) / 0xffffffff - 0.5;
    sum += vector[i]! * vector[i]!;
  }
  const scale = 1 / Math.sqrt(sum);
  for (let i = 0; i < dimensions; i++) vector[i]! *= scale;
  return vector;
}

/** The API's base64 format: the float32 components, little-endian, base64-encoded. */
function toBase64(vector: Float32Array): string {
  const bytes = Buffer.alloc(vector.length * 4);
  vector.forEach((value, i) => bytes.writeFloatLE(value, i * 4));
  return bytes.toString('base64');
}
