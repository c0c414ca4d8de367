import test from 'ava';
import OpenAI from 'openai';
import { startFakeEmbeddingsServer } from './fake-embeddings-server.js';

const apiKey = 'sk-fake-0123456789abcdef';

async function post(baseUrl: string, body: unknown, key = apiKey) {
  const response = await fetch(`${baseUrl}/embeddings`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as any };
}

test('answers like the real API, in float and in the base64 the SDK asks for by default', async (t) => {
  const server = await startFakeEmbeddingsServer({ apiKey, dimensions: 12 });
  t.teardown(() => server.close());
  t.regex(server.baseUrl, /^http:\/\/127\.0\.0\.1:\d+\/v1$/);

  const floats = await post(server.baseUrl, { model: 'm', input: ['alpha', 'beta'], encoding_format: 'float' });
  t.is(floats.status, 200);
  t.like(floats.body, {
    object: 'list',
    model: 'm',
    data: [
      { object: 'embedding', index: 0 },
      { object: 'embedding', index: 1 },
    ],
  });
  t.true(floats.body.usage.prompt_tokens > 0);
  const alpha: number[] = floats.body.data[0].embedding;
  t.is(alpha.length, 12);
  t.true(Math.abs(Math.hypot(...alpha) - 1) < 1e-6);

  const single = await post(server.baseUrl, { model: 'm', input: 'alpha' });
  t.deepEqual(single.body.data[0].embedding, alpha, 'a string input, and the same text gives the same vector');

  // No encoding_format: the SDK requests base64 and decodes the float32 little-endian bytes itself.
  const client = new OpenAI({ apiKey, baseURL: server.baseUrl, maxRetries: 0, logLevel: 'off' });
  const decoded = await client.embeddings.create({ model: 'm', input: ['alpha'] });
  t.is(server.calls.at(-1)!.encodingFormat, 'base64');
  decoded.data[0]!.embedding.forEach((x, i) => t.true(Math.abs(x - alpha[i]!) < 1e-6));
});

test('refuses what the real API refuses, with its error bodies', async (t) => {
  const server = await startFakeEmbeddingsServer({ apiKey, dimensions: 4 });
  t.teardown(() => server.close());

  const wrongKey = await post(server.baseUrl, { model: 'm', input: 'x' }, 'sk-other-key-000000');
  t.is(wrongKey.status, 401);
  t.like(wrongKey.body.error, { type: 'invalid_request_error', param: null, code: 'invalid_api_key' });
  t.regex(wrongKey.body.error.message, /^Incorrect API key provided: sk-\*+0000\./);

  t.is((await post(server.baseUrl, { input: 'x' })).status, 400);
  t.is((await post(server.baseUrl, { model: 'm' })).status, 400);
  t.is((await post(server.baseUrl, { model: 'm', input: [] })).status, 400);
  t.is((await post(server.baseUrl, { model: 'm', input: ['ok', ''] })).status, 400);
  t.is((await post(server.baseUrl, '{not json')).status, 400);
  const wrongPath = await fetch(`${server.baseUrl}/embedding`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}` },
  });
  t.is(wrongPath.status, 404);

  server.failNext(1, 429, { retryAfterSeconds: 2 });
  const limited = await post(server.baseUrl, { model: 'm', input: 'x' });
  t.is(limited.status, 429);
  t.is(limited.headers.get('retry-after'), '2');
  t.like(limited.body.error, { type: 'requests', code: 'rate_limit_exceeded' });

  server.failNext(1, 500);
  const failed = await post(server.baseUrl, { model: 'm', input: 'x' });
  t.deepEqual(failed.body, {
    error: {
      message: 'The server had an error while processing your request. Sorry about that!',
      type: 'server_error',
      param: null,
      code: null,
    },
  });
  t.is((await post(server.baseUrl, { model: 'm', input: 'x' })).status, 200, 'scripted failures are used up');
});
