import test from 'ava';
import { contentHash } from './content-hash.js';
import { IngestionApiError, IngestionNetworkError } from './errors.js';
import { makeItem, makeItems, setup } from './test-helpers.js';
import type { RetryEvent } from './types.js';

test('ingest sends one item with x-api-key and a filled hash, and parses the job id', async (t) => {
  const { server, client } = await setup();
  t.teardown(() => server.close());
  const item = makeItem('p1', { options: { priority: 'high' } });

  const response = await client.ingest(item);

  t.deepEqual(response, { status: 'queued', jobId: 'shop-p1' });
  t.is(server.requests.length, 1);
  const [request] = server.requests;
  t.is(request?.method, 'POST');
  t.is(request?.path, '/ingest');
  t.is(request?.headers['x-api-key'], 'key-123');
  t.is(request?.headers['content-type'], 'application/json');
  t.deepEqual(request?.body, { ...item, data: { ...item.data, hash: contentHash('Title p1', 'Content of p1') } });
  t.is(item.data.hash, undefined, "the caller's item is not mutated");
});

test('a hash given by the caller is kept', async (t) => {
  const { server, client } = await setup();
  t.teardown(() => server.close());
  await client.ingest(makeItem('p1', { data: { title: 'T', content: 'C', hash: 'mine' } }));
  t.is((server.requests[0]?.body as { data: { hash: string } }).data.hash, 'mine');
});

test('ingestBulk sends items in one call and parses the bulk response', async (t) => {
  const { server, client } = await setup();
  t.teardown(() => server.close());

  const response = await client.ingestBulk(makeItems(3));

  t.deepEqual(response, { status: 'queued', jobCount: 3, estimatedTime: '1s', jobIds: ['shop-p0', 'shop-p1', 'shop-p2'] });
  t.is(server.requests.length, 1);
  const request = server.requests[0];
  t.is(request?.method, 'POST');
  t.is(request?.path, '/ingest/bulk');
  t.is(request?.headers['x-api-key'], 'key-123');
  const items = (request?.body as { items: Array<{ data: { hash?: string; title: string; content: string } }> }).items;
  t.is(items.length, 3);
  for (const sent of items) t.is(sent.data.hash, contentHash(sent.data.title, sent.data.content));
});

test('ingestBulk rejects 0 or more than 100 items without a request', async (t) => {
  const { server, client } = await setup();
  t.teardown(() => server.close());
  await t.throwsAsync(client.ingestBulk([]), { instanceOf: RangeError, message: /1 to 100 items/ });
  await t.throwsAsync(client.ingestBulk(makeItems(101)), { instanceOf: RangeError, message: /got 101.*ingestAll/ });
  await t.notThrowsAsync(client.ingestBulk(makeItems(100)));
  t.is(server.requests.length, 1);
});

test('cleanup sends the three fields and parses the result', async (t) => {
  const { server, client } = await setup();
  t.teardown(() => server.close());

  const result = await client.cleanup({ knowledgeBaseId: 'kb1', sourceOrigin: 'shop', keepExternalIds: ['a', 'b'] });

  t.deepEqual(result, { deleted: 2, orphanedExternalIds: ['gone-1', 'gone-2'] });
  const request = server.requests[0];
  t.is(request?.method, 'POST');
  t.is(request?.path, '/ingest/cleanup');
  t.is(request?.headers['x-api-key'], 'key-123');
  t.deepEqual(request?.body, { knowledgeBaseId: 'kb1', sourceOrigin: 'shop', keepExternalIds: ['a', 'b'] });
});

test('a cleanup still running (202) is polled at its statusUrl, waiting Retry-After between, until its result', async (t) => {
  const { server, client, sleeps } = await setup();
  t.teardown(() => server.close());
  const running = { status: 'running', cleanupId: 'c/1', statusUrl: '/ingest/cleanups/c%2F1' };
  server.script.push(
    { status: 202, body: running, headers: { 'retry-after': '7' } },
    { status: 202, body: running },
    { status: 200, body: { deleted: 3, orphanedExternalIds: ['x', 'y', 'z'] } },
  );

  const result = await client.cleanup({ knowledgeBaseId: 'kb1', sourceOrigin: 'shop', keepExternalIds: [] });

  t.deepEqual(result, { deleted: 3, orphanedExternalIds: ['x', 'y', 'z'] });
  t.deepEqual(
    server.requests.map((request) => `${request.method} ${request.path}`),
    ['POST /ingest/cleanup', 'GET /ingest/cleanups/c%2F1', 'GET /ingest/cleanups/c%2F1'],
  );
  t.deepEqual(sleeps, [7_000, 5_000], 'Retry-After when given, else 5 s');
});

test('jobStatus GETs the encoded job path and parses the status', async (t) => {
  const { server, client } = await setup();
  t.teardown(() => server.close());
  const job = { jobId: 'shop-p/1', status: 'searchable', knowledgeBaseId: 'kb1', updatedAt: '2025-01-01T00:00:00.000Z' };
  server.script.push({ status: 200, body: job });

  t.deepEqual(await client.jobStatus('shop-p/1'), job);
  const request = server.requests[0];
  t.is(request?.method, 'GET');
  t.is(request?.path, '/ingest/jobs/shop-p%2F1');
  t.is(request?.headers['x-api-key'], 'key-123');
  t.is(request?.body, undefined);
});

for (const status of [429, 500, 502, 503]) {
  test(`${status} is retried with backoff, then succeeds`, async (t) => {
    const retries: RetryEvent[] = [];
    const { server, client, sleeps } = await setup({ onRetry: (event) => retries.push(event) });
    t.teardown(() => server.close());
    const failure = { status, body: { error: { code: 'x', message: 'try again' } } };
    server.script.push(failure, failure);

    t.deepEqual(await client.ingest(makeItem('p1')), { status: 'queued', jobId: 'shop-p1' });
    t.is(server.requests.length, 3);
    t.deepEqual(sleeps, [1000, 2000]);
    t.deepEqual(
      retries.map((event) => [event.retry, event.status, event.delayMs]),
      [
        [1, status, 1000],
        [2, status, 2000],
      ],
    );
  });
}

test('Retry-After: 2 is honoured instead of the computed delay', async (t) => {
  const { server, client, sleeps } = await setup({ random: () => 0.7 });
  t.teardown(() => server.close());
  server.script.push({
    status: 429,
    headers: { 'retry-after': '2' },
    body: { error: { code: 'rate_limited', message: 'Slow down.' } },
  });

  await client.ingestBulk(makeItems(2));
  t.deepEqual(sleeps, [2000]);
  t.is(server.requests.length, 2);
});

test('a retryable status that persists is retried 3 times, then thrown (4 requests)', async (t) => {
  const { server, client, sleeps } = await setup({ random: () => 0.5 });
  t.teardown(() => server.close());
  for (let i = 0; i < 4; i += 1) {
    server.script.push({
      status: 503,
      headers: { 'x-request-id': `req-${i}` },
      body: { error: { code: 'unavailable', message: 'Vector store is down.' } },
    });
  }

  const error = await t.throwsAsync(client.ingest(makeItem('p1')), { instanceOf: IngestionApiError });
  t.is(error?.status, 503);
  t.is(error?.code, 'unavailable');
  t.is(error?.message, 'Vector store is down.');
  t.is(error?.requestId, 'req-3');
  t.is(server.requests.length, 4);
  t.deepEqual(sleeps, [1500, 2500, 4500]);
});

const nonRetryable = [
  [400, 'invalid_payload', 'data.title is required.'],
  [401, 'unauthorized', 'Missing or invalid API key.'],
  [403, 'forbidden', 'The key lacks the iq:import scope.'],
  [404, 'not_found', 'No such knowledge base.'],
  [413, 'payload_too_large', 'Reduce the batch size.'],
] as const;

for (const [status, code, message] of nonRetryable) {
  test(`${status} is thrown at once with the body's code and message`, async (t) => {
    const { server, client, sleeps } = await setup();
    t.teardown(() => server.close());
    const details = [{ path: '/data/title', message: 'is required' }];
    server.script.push({ status, body: { error: { code, message, details } } });

    const error = await t.throwsAsync(client.ingestBulk(makeItems(2)), { instanceOf: IngestionApiError });
    t.is(error?.status, status);
    t.is(error?.code, code);
    t.is(error?.message, message);
    t.deepEqual(error?.details, details);
    t.is(server.requests.length, 1);
    t.deepEqual(sleeps, []);
  });
}

test('an error body that is not JSON still gives a usable error', async (t) => {
  const { server, client } = await setup();
  t.teardown(() => server.close());
  server.script.push({ status: 400, rawBody: '<html>Bad Request</html>', headers: { 'content-type': 'text/html' } });

  const error = await t.throwsAsync(client.ingest(makeItem('p1')), { instanceOf: IngestionApiError });
  t.is(error?.status, 400);
  t.is(error?.code, 'http_400');
  t.regex(error?.message ?? '', /POST \/ingest failed with HTTP 400: <html>Bad Request/);
  t.is(error?.details, undefined);
});

test('network failures are retried within the same budget', async (t) => {
  let calls = 0;
  const flaky: typeof fetch = async (input, init) => {
    calls += 1;
    if (calls <= 2) throw new TypeError('fetch failed');
    return fetch(input, init);
  };
  const { server, client, sleeps } = await setup({ fetch: flaky });
  t.teardown(() => server.close());

  t.deepEqual(await client.ingest(makeItem('p1')), { status: 'queued', jobId: 'shop-p1' });
  t.deepEqual(sleeps, [1000, 2000]);
  t.is(server.requests.length, 1);
});

test('a network failure on every attempt gives up after 4 attempts', async (t) => {
  let calls = 0;
  const down: typeof fetch = async () => {
    calls += 1;
    throw new TypeError('fetch failed');
  };
  const { server, client, sleeps } = await setup({ fetch: down });
  t.teardown(() => server.close());

  const error = await t.throwsAsync(client.jobStatus('j'), { instanceOf: IngestionNetworkError });
  t.true(error?.cause instanceof TypeError);
  t.is(calls, 4);
  t.deepEqual(sleeps, [1000, 2000, 4000]);
});
