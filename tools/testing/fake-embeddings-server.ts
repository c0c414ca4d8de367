import type { IncomingMessage, ServerResponse } from 'node:http';
import { acceptRequest, failCall, RequestScript, sendJson, startOpenAIServer, type RetryAfter } from './fake-openai-http.js';

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
  failNext(count: number, status: number, options?: RetryAfter): void;
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

const maxInputs = 2048;

export async function startFakeEmbeddingsServer(options: { apiKey: string; dimensions: number }): Promise<FakeEmbeddingsServer> {
  const calls: FakeEmbeddingsCall[] = [];
  const script = new RequestScript();
  let forcedDimensions: number | undefined;

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const accepted = await acceptRequest(request, response, { route: 'embeddings', apiKey: options.apiKey, script });
    if (!accepted) return;
    const { params } = accepted;
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
    const fail = failCall(response, call);

    const rateLimit = `Rate limit reached for ${call.model} on requests per min (RPM). Please try again in 1s.`;
    if (script.sendNextFailure(response, fail, { rateLimit })) return;

    if (call.model === undefined) {
      return fail({ status: 400, message: 'you must provide a model parameter', type: 'invalid_request_error' });
    }
    if (params.input === undefined) {
      return fail({ status: 400, message: "'input' is a required property", type: 'invalid_request_error' });
    }
    if (
      !Array.isArray(inputs) ||
      inputs.length === 0 ||
      inputs.length > maxInputs ||
      inputs.some((text) => typeof text !== 'string' || text === '')
    ) {
      return fail({
        status: 400,
        message: "'$.input' is invalid. Please check the API reference: https://platform.openai.com/docs/api-reference.",
        type: 'invalid_request_error',
      });
    }
    if (encodingFormat !== 'float' && encodingFormat !== 'base64') {
      return fail({
        status: 400,
        message: `'${encodingFormat}' is not one of ['float', 'base64'] - 'encoding_format'`,
        type: 'invalid_request_error',
        param: 'encoding_format',
      });
    }
    if (requested !== undefined && (!Number.isInteger(requested) || (requested as number) < 1)) {
      return fail({
        status: 400,
        message: 'Invalid value for dimensions: must be a positive integer.',
        type: 'invalid_request_error',
        param: 'dimensions',
      });
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

  const server = await startOpenAIServer(handle);
  return {
    ...server,
    calls,
    failNext: (count, status, retryAfter) => script.failNext(count, status, retryAfter),
    delayNext: (count, ms) => script.delayNext(count, ms),
    respondWithDimensions(n) {
      forcedDimensions = n;
    },
  };
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
