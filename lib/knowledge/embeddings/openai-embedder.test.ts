import test from 'ava';
import { startFakeEmbeddingsServer, type FakeEmbeddingsServer } from '#testing/fake-embeddings-server.js';
import { EmbeddingRejectedError, EmbeddingUnavailableError } from './embedder.js';
import { createEmbedder } from './index.js';
import { createOpenAIEmbedder, type OpenAIEmbedderSettings } from './openai-embedder.js';

const apiKey = 'sk-test-0123456789abcdefghijklmnop';
const model = 'text-embedding-3-small';

async function withServer(dimensions: number, run: (server: FakeEmbeddingsServer) => Promise<void>): Promise<void> {
  const server = await startFakeEmbeddingsServer({ apiKey, dimensions });
  try {
    await run(server);
  } finally {
    await server.close();
  }
}

function settings(server: { baseUrl: string }, overrides: Partial<OpenAIEmbedderSettings> = {}): OpenAIEmbedderSettings {
  return { baseUrl: server.baseUrl, model, apiKey, dimensions: 8, maxRetries: 2, timeoutMs: 2000, ...overrides };
}

const texts = (count: number) => Array.from({ length: count }, (_, i) => `chunk number ${i}`);

test('texts are sent in batches and come back in input order', (t) =>
  withServer(8, async (server) => {
    const embedder = await createEmbedder({ provider: 'openai', ...settings(server), batchSize: 64, sendDimensions: false });
    t.deepEqual(embedder.space, { provider: 'openai', model, dimensions: 8 });

    const input = texts(150);
    const vectors = await embedder.embed(input);
    t.deepEqual(
      server.calls.map((call) => call.inputCount),
      [64, 64, 22],
    );
    t.true(
      server.calls.every((call) => call.model === model && call.encodingFormat === 'float' && call.dimensions === undefined),
    );
    t.is(vectors.length, 150);
    // Each text's vector is the one it gets on its own: nothing was shuffled between batches.
    t.deepEqual(await embedder.embed([input[149]!, input[0]!]), [vectors[149], vectors[0]]);
    t.true(vectors.every((vector) => vector.length === 8 && vector.every(Number.isFinite)));
  }));

test('no texts make no request', (t) =>
  withServer(8, async (server) => {
    t.deepEqual(await createOpenAIEmbedder(settings(server)).embed([]), []);
    t.is(server.calls.length, 0);
  }));

test('the dimensions parameter is sent only when asked to', (t) =>
  withServer(1536, async (server) => {
    const vectors = await createOpenAIEmbedder(settings(server, { dimensions: 16, sendDimensions: true })).embed(['a', 'b']);
    t.is(server.calls[0]!.dimensions, 16);
    t.deepEqual(
      vectors.map((vector) => vector.length),
      [16, 16],
    );
  }));

test('a rate limit is retried by the client, honouring Retry-After', (t) =>
  withServer(8, async (server) => {
    server.failNext(2, 429, { retryAfterSeconds: 0 });
    const vectors = await createOpenAIEmbedder(settings(server)).embed(texts(3));
    t.is(vectors.length, 3);
    t.deepEqual(
      server.calls.map((call) => call.status),
      [429, 429, 200],
    );
  }));

test('server errors beyond the retries surface as an ordinary, retryable error naming provider and status', (t) =>
  withServer(8, async (server) => {
    server.failNext(5, 500, { retryAfterMs: 1 });
    const error = await t.throwsAsync(createOpenAIEmbedder(settings(server, { maxRetries: 2 })).embed(texts(2)));
    t.false(error instanceof EmbeddingRejectedError);
    t.true(error instanceof EmbeddingUnavailableError);
    t.is((error as EmbeddingUnavailableError).status, 500);
    t.regex(error!.message, /127\.0\.0\.1:\d+\/v1 answered HTTP 500 for model "text-embedding-3-small" \(3 attempts\)/);
    t.is(server.calls.length, 3);
  }));

test('an exhausted rate limit is retryable too', (t) =>
  withServer(8, async (server) => {
    server.failNext(2, 429, { retryAfterSeconds: 0 });
    const error = await t.throwsAsync(createOpenAIEmbedder(settings(server, { maxRetries: 1 })).embed(texts(2)));
    t.false(error instanceof EmbeddingRejectedError);
    t.regex(error!.message, /HTTP 429.*Rate limit reached/);
  }));

test('a wrong key is a permanent refusal that does not quote the key', (t) =>
  withServer(8, async (server) => {
    const wrongKey = 'sk-wrong-9876543210zyxwvutsrqponm';
    const error = await t.throwsAsync(createOpenAIEmbedder(settings(server, { apiKey: wrongKey })).embed(texts(2)), {
      instanceOf: EmbeddingRejectedError,
    });
    t.is((error as EmbeddingRejectedError).code, 'embedding_unauthorized');
    t.regex(error!.message, /refused the API key for model "text-embedding-3-small" \(HTTP 401\)/);
    for (const part of [wrongKey, wrongKey.slice(0, 3), wrongKey.slice(-4)]) t.false(error!.message.includes(part), part);
    t.is(error!.cause, undefined);
    t.is(server.calls.length, 0, 'a refusal is not retried');
  }));

test('vectors of another length than configured are a dimension mismatch naming both and the model', (t) =>
  withServer(8, async (server) => {
    server.respondWithDimensions(1536);
    const error = await t.throwsAsync(createOpenAIEmbedder(settings(server)).embed(texts(2)), {
      instanceOf: EmbeddingRejectedError,
    });
    t.is((error as EmbeddingRejectedError).code, 'embedding_dimension_mismatch');
    t.regex(error!.message, /"text-embedding-3-small".* 1536 dimensions, but 8 are expected/);
  }));

test('a request the provider refuses is rejected with its reason', (t) =>
  withServer(8, async (server) => {
    server.failNext(1, 400);
    const badRequest = await t.throwsAsync(createOpenAIEmbedder(settings(server)).embed(['x']), {
      instanceOf: EmbeddingRejectedError,
    });
    t.is((badRequest as EmbeddingRejectedError).code, 'embedding_rejected');
    t.regex(
      badRequest!.message,
      /rejected the request for model "text-embedding-3-small" \(HTTP 400\): Scripted failure with status 400\./,
    );

    server.failNext(1, 404);
    const notFound = await t.throwsAsync(createOpenAIEmbedder(settings(server)).embed(['x']), {
      instanceOf: EmbeddingRejectedError,
    });
    t.is((notFound as EmbeddingRejectedError).code, 'embedding_rejected');
    t.regex(notFound!.message, /HTTP 404.*base URL ends in the API version/);
    t.is(server.calls.length, 2, 'refusals are not retried');
  }));

test('settings that cannot work are refused when the embedder is made', (t) => {
  const base = { baseUrl: 'http://127.0.0.1:1/v1', model, apiKey, dimensions: 8 };
  t.throws(() => createOpenAIEmbedder({ ...base, dimensions: 0.5 }), {
    instanceOf: RangeError,
    message: /dimensions must be a whole number/,
  });
  t.throws(() => createOpenAIEmbedder({ ...base, batchSize: 4096 }), {
    instanceOf: RangeError,
    message: /batchSize .* from 1 to 2048/,
  });
  t.throws(() => createOpenAIEmbedder({ ...base, baseUrl: 'api.openai.com/v1' }), {
    instanceOf: RangeError,
    message: /absolute/,
  });
});

test('an empty text is refused before any request', (t) =>
  withServer(8, async (server) => {
    const error = await t.throwsAsync(createOpenAIEmbedder(settings(server)).embed(['fine', '']), {
      instanceOf: EmbeddingRejectedError,
    });
    t.is((error as EmbeddingRejectedError).code, 'embedding_empty_input');
    t.is(server.calls.length, 0);
  }));

test('a provider that cannot be reached or does not answer in time gives a retryable error', async (t) => {
  const closed = await startFakeEmbeddingsServer({ apiKey, dimensions: 8 });
  await closed.close();
  const unreachable = await t.throwsAsync(createOpenAIEmbedder(settings(closed, { maxRetries: 0 })).embed(['x']), {
    instanceOf: EmbeddingUnavailableError,
  });
  t.regex(
    unreachable!.message,
    /Could not reach the embeddings provider at http:\/\/127\.0\.0\.1:\d+\/v1 \(connect ECONNREFUSED 127\.0\.0\.1:\d+, 1 attempt\)/,
  );

  await withServer(8, async (server) => {
    server.delayNext(1, 1000);
    const slow = await t.throwsAsync(createOpenAIEmbedder(settings(server, { maxRetries: 0, timeoutMs: 100 })).embed(['x']), {
      instanceOf: EmbeddingUnavailableError,
    });
    t.regex(slow!.message, /did not answer within 100 ms/);
  });
});
