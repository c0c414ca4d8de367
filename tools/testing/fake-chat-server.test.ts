import test from 'ava';
import OpenAI from 'openai';
import { defaultFakeReply, startFakeChatServer, tokenize, tokensBeforeInterruption } from './fake-chat-server.js';

const apiKey = 'sk-fake-0123456789abcdef';
const messages = [
  { role: 'system' as const, content: 'Be brief.' },
  { role: 'user' as const, content: 'How do I reset my password?' },
];

async function post(baseUrl: string, body: unknown, key = apiKey) {
  return fetch(`${baseUrl}/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** The `data:` payloads of an event stream, parsed except for the closing `[DONE]`. */
function events(raw: string): unknown[] {
  return raw
    .split('\n\n')
    .filter((event) => event !== '')
    .map((event) => {
      const data = event.replace(/^data: /, '');
      return data === '[DONE]' ? data : JSON.parse(data);
    });
}

test('streams a reply as OpenAI does: role chunk, one chunk per token, finish chunk, [DONE]', async (t) => {
  const server = await startFakeChatServer({ apiKey });
  t.teardown(() => server.close());
  t.regex(server.baseUrl, /^http:\/\/127\.0\.0\.1:\d+\/v1$/);

  const response = await post(server.baseUrl, { model: 'gpt-test', messages, stream: true });
  t.is(response.status, 200);
  t.regex(response.headers.get('content-type') ?? '', /^text\/event-stream/);
  const stream = events(await response.text()) as any[];

  const tokens = tokenize(defaultFakeReply);
  t.is(stream.length, tokens.length + 3);
  const first = stream[0];
  t.like(first, { object: 'chat.completion.chunk', model: 'gpt-test' });
  t.regex(first.id, /^chatcmpl-/);
  t.true(Number.isInteger(first.created));
  t.deepEqual(first.choices, [
    { index: 0, delta: { role: 'assistant', content: '', refusal: null }, logprobs: null, finish_reason: null },
  ]);
  t.deepEqual(
    stream.slice(1, -2).map((chunk) => chunk.choices[0].delta.content),
    tokens,
  );
  t.true(stream.slice(0, -1).every((chunk) => chunk.id === first.id && chunk.created === first.created));
  t.deepEqual(stream.at(-2).choices, [{ index: 0, delta: {}, logprobs: null, finish_reason: 'stop' }]);
  t.is(stream.at(-1), '[DONE]');
  t.is(tokens.join(''), defaultFakeReply);
  t.regex(defaultFakeReply, /\[1\]/);

  t.deepEqual(server.calls, [
    { model: 'gpt-test', messages, stream: true, temperature: undefined, maxTokens: undefined, status: 200 },
  ]);
});

test('the SDK reads the stream and the plain completion, and the reply can depend on the request', async (t) => {
  const server = await startFakeChatServer({ apiKey });
  t.teardown(() => server.close());
  server.respondWith((request) => `You asked ${request.model}: ${request.messages.at(-1)!.content}`);
  const client = new OpenAI({ apiKey, baseURL: server.baseUrl, maxRetries: 0, logLevel: 'off' });

  const stream = await client.chat.completions.create({
    model: 'm',
    messages: [{ role: 'user', content: 'Ünïcode, please!' }],
    stream: true,
    stream_options: { include_usage: true },
    temperature: 0.3,
  });
  let text = '';
  let usage: unknown;
  for await (const chunk of stream) {
    text += chunk.choices[0]?.delta.content ?? '';
    usage ??= chunk.usage ?? undefined;
  }
  t.is(text, 'You asked m: Ünïcode, please!');
  t.like(usage, { total_tokens: 12 });
  t.is(server.calls[0]!.temperature, 0.3);

  server.respondWith('Plain.');
  const completion = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] });
  t.like(completion, { object: 'chat.completion', model: 'm', choices: [{ index: 0, finish_reason: 'stop' }] });
  t.is(completion.choices[0]!.message.content, 'Plain.');
  t.false(server.calls[1]!.stream);
});

test('tokens are words and single punctuation marks, whitespace kept', (t) => {
  t.deepEqual(tokenize('NO_ANSWER'), ['NO', '_', 'ANSWER']);
  t.deepEqual(tokenize('Yes [12].\n\n- Größe'), ['Yes', ' [', '12', ']', '.', '\n\n-', ' Größe']);
  t.deepEqual(tokenize(' trailing  '), [' trailing', '  ']);
});

test('refuses what the real API refuses, with its error bodies', async (t) => {
  const server = await startFakeChatServer({ apiKey });
  t.teardown(() => server.close());

  const wrongKey = await post(server.baseUrl, { model: 'm', messages }, 'sk-other-key-000000');
  t.is(wrongKey.status, 401);
  const wrongKeyBody = (await wrongKey.json()) as any;
  t.like(wrongKeyBody.error, { type: 'invalid_request_error', param: null, code: 'invalid_api_key' });
  t.regex(wrongKeyBody.error.message, /^Incorrect API key provided: sk-\*+0000\./);
  const noKey = await fetch(`${server.baseUrl}/chat/completions`, { method: 'POST', body: '{}' });
  t.is(noKey.status, 401);
  t.regex(((await noKey.json()) as any).error.message, /^You didn't provide an API key/);

  t.is((await post(server.baseUrl, { messages })).status, 400);
  t.is((await post(server.baseUrl, { model: 'm' })).status, 400);
  t.is((await post(server.baseUrl, { model: 'm', messages: [] })).status, 400);
  t.is((await post(server.baseUrl, '{not json')).status, 400);
  const wrongPath = await fetch(`${server.baseUrl}/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}` },
  });
  t.is(wrongPath.status, 404);
  t.like(((await wrongPath.json()) as any).error, {
    message: 'Invalid URL (POST /v1/completions)',
    type: 'invalid_request_error',
  });
  t.is(server.calls.length, 3, 'only authorised requests to the route are recorded');

  server.failNext(1, 429, { retryAfterSeconds: 2 });
  const limited = await post(server.baseUrl, { model: 'm', messages, stream: true });
  t.is(limited.status, 429);
  t.is(limited.headers.get('retry-after'), '2');
  t.like(((await limited.json()) as any).error, { type: 'requests', code: 'rate_limit_exceeded' });

  server.failNext(1, 500);
  t.deepEqual(await (await post(server.baseUrl, { model: 'm', messages })).json(), {
    error: {
      message: 'The server had an error while processing your request. Sorry about that!',
      type: 'server_error',
      param: null,
      code: null,
    },
  });
  server.failNext(1, 503, { retryAfterMs: 5 });
  const overloaded = await post(server.baseUrl, { model: 'm', messages });
  t.is(overloaded.status, 503);
  t.is(overloaded.headers.get('retry-after-ms'), '5');
  t.regex(((await overloaded.json()) as any).error.message, /overloaded/);

  t.is((await post(server.baseUrl, { model: 'm', messages })).status, 200, 'scripted failures are used up');
  t.deepEqual(
    server.calls.map((call) => call.status),
    [400, 400, 400, 429, 500, 503, 200],
  );
});

test('a stream cut mid-way ends after a few tokens with a broken connection', async (t) => {
  const server = await startFakeChatServer({ apiKey });
  t.teardown(() => server.close());
  server.respondWith('one two three four five six');
  server.failMidStreamNext(1);
  const client = new OpenAI({ apiKey, baseURL: server.baseUrl, maxRetries: 0, logLevel: 'off' });

  const stream = await client.chat.completions.create({ model: 'm', messages, stream: true });
  const received: string[] = [];
  const error = await t.throwsAsync(async () => {
    for await (const chunk of stream) received.push(chunk.choices[0]?.delta.content ?? '');
  });
  t.regex(error!.message, /terminated/);
  t.deepEqual(received.filter(Boolean), ['one', ' two', ' three'].slice(0, tokensBeforeInterruption));

  const next = await post(server.baseUrl, { model: 'm', messages, stream: true });
  t.true((await next.text()).endsWith('data: [DONE]\n\n'), 'only the next stream is cut');
});

test('a stalled stream pauses mid-way and a delayed request waits before any answer', async (t) => {
  const server = await startFakeChatServer({ apiKey });
  t.teardown(() => server.close());
  server.respondWith('one two three four');

  server.stallMidStreamNext(1, 150);
  const stalledAt = Date.now();
  const stalled = events(await (await post(server.baseUrl, { model: 'm', messages, stream: true })).text());
  t.true(Date.now() - stalledAt >= 140);
  t.is(stalled.at(-1), '[DONE]');
  t.is(stalled.length, 4 + 3, 'the whole reply still comes');

  server.delayNext(1, 150);
  const delayedAt = Date.now();
  t.is((await post(server.baseUrl, { model: 'm', messages })).status, 200);
  t.true(Date.now() - delayedAt >= 140);
});
