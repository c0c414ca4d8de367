import test from 'ava';
import { createTenantWithKey, startTestApi, type TestApi } from '#testing/api.js';
import { assertMatchesSchema } from '#testing/schema.js';
import { errorBody } from './schemas/common.js';
import { captureLogLines } from '#testing/log-capture.js';

/** Every log line the API writes, to check what it says and what it never says. */
const { lines: logLines, sink: logSink } = captureLogLines();

let api: TestApi;
test.before(async () => {
  api = await startTestApi({ BODY_LIMIT_BYTES: '2048', RATE_LIMIT_PER_MINUTE: '3' }, logSink);
});
test.after.always(() => api?.close());

const adminHeaders = () => ({ authorization: `Bearer ${api.adminToken}` });

test('a body that is not JSON is 400 invalid_payload', async (t) => {
  const response = await api.request('POST', '/admin/tenants', {
    body: '{"name": ',
    headers: { ...adminHeaders(), 'content-type': 'application/json' },
  });
  t.is(response.status, 400);
  assertMatchesSchema(t, errorBody, response.body);
  t.is(response.body.error.code, 'invalid_payload');
  t.regex(response.body.error.message, /not valid JSON/);
});

test('JSON that is not an object is 400 invalid_payload', async (t) => {
  for (const body of ['"a string"', '42', '[{"name": "x"}]']) {
    const response = await api.request('POST', '/admin/tenants', {
      body,
      headers: { ...adminHeaders(), 'content-type': 'application/json' },
    });
    t.is(response.status, 400, body);
    t.is(response.body.error.code, 'invalid_payload', body);
  }
});

test('validation failures list every problem with its JSON Pointer', async (t) => {
  const response = await api.request('POST', '/admin/tenants/x/users', {
    body: { name: '', email: 'not-an-email', role: 'root', extra: true },
    headers: adminHeaders(),
  });
  t.is(response.status, 400);
  assertMatchesSchema(t, errorBody, response.body);
  t.deepEqual(response.body.error.details.map((d: { path: string }) => d.path).sort(), ['/email', '/extra', '/name', '/role']);
});

test('a body in another format is 415', async (t) => {
  const response = await api.request('POST', '/admin/tenants', {
    body: 'name=x',
    headers: { ...adminHeaders(), 'content-type': 'application/x-www-form-urlencoded' },
  });
  t.is(response.status, 415);
  t.is(response.body.error.code, 'unsupported_media_type');
});

test('a body over the limit is 413 payload_too_large: 64 KB for the admin, chat and agent routes', async (t) => {
  const response = await api.request('POST', '/admin/tenants', {
    body: { name: 'x'.repeat(65 * 1024) },
    headers: adminHeaders(),
  });
  t.is(response.status, 413);
  assertMatchesSchema(t, errorBody, response.body);
  t.is(response.body.error.code, 'payload_too_large');
  t.regex(response.body.error.message, /larger than 65536 bytes/);

  // The ingestion routes take BODY_LIMIT_BYTES (2048 here).
  const { headers } = await createTenantWithKey(api, ['iq:import']);
  const ingest = await api.request('POST', '/ingest', { body: { padding: 'x'.repeat(4096) }, headers });
  t.is(ingest.status, 413);
  t.regex(ingest.body.error.message, /larger than 2048 bytes/);
});

test('a body is read only after authentication, and only by a route that takes one', async (t) => {
  const broken = { body: '{"name": ', headers: { 'content-type': 'application/json' } };
  const anonymous = await api.request('POST', '/admin/tenants', broken);
  t.is(anonymous.status, 401);
  t.is((await api.request('POST', '/chat/conversations', broken)).status, 401);
  t.is((await api.request('POST', '/no/such/route', broken)).status, 404);
});

test('an unknown route is 404 not_found in the same shape', async (t) => {
  const response = await api.request('GET', '/no/such/route');
  t.is(response.status, 404);
  t.deepEqual(response.body, {
    error: { code: 'not_found', message: 'No route GET /no/such/route.', requestId: response.headers.get('x-request-id') },
  });
});

test('a known route asked with another method is 405 with Allow', async (t) => {
  const response = await api.request('DELETE', '/admin/tenants', { headers: adminHeaders() });
  t.is(response.status, 405);
  t.is(response.body.error.code, 'method_not_allowed');
  t.is(response.headers.get('allow'), 'POST');
});

test('401 and 403 use the one error shape', async (t) => {
  const unauthorized = await api.request('GET', '/knowledge-bases');
  t.is(unauthorized.status, 401);
  assertMatchesSchema(t, errorBody, unauthorized.body);

  const { headers } = await createTenantWithKey(api, ['iq:import']);
  const forbidden = await api.request('GET', '/knowledge-bases', { headers });
  t.is(forbidden.status, 403);
  assertMatchesSchema(t, errorBody, forbidden.body);
});

test('each key gets its own budget; past it, 429 rate_limited with Retry-After', async (t) => {
  const first = await createTenantWithKey(api, ['iq:read']);
  const second = await createTenantWithKey(api, ['iq:read']);
  const statuses = [];
  let limited;
  for (let i = 0; i < 4; i++) {
    const response = await api.request('GET', '/knowledge-bases', { headers: first.headers });
    statuses.push(response.status);
    if (response.status === 200) t.is(response.headers.get('ratelimit-remaining'), String(2 - i));
    limited = response;
  }
  t.deepEqual(statuses, [200, 200, 200, 429]);
  assertMatchesSchema(t, errorBody, limited!.body);
  t.is(limited!.body.error.code, 'rate_limited');
  const retryAfter = Number(limited!.headers.get('retry-after'));
  t.true(retryAfter >= 1 && retryAfter <= 60, `Retry-After: ${retryAfter}`);
  t.is(limited!.headers.get('ratelimit-limit'), '3');

  t.is((await api.request('GET', '/knowledge-bases', { headers: second.headers })).status, 200);
});

test('every answer carries a request id; a sane one from the caller is kept', async (t) => {
  const generated = await api.request('GET', '/live');
  t.regex(generated.headers.get('x-request-id') ?? '', /^req_[0-9a-f-]{36}$/);

  const given = await api.request('GET', '/live', { headers: { 'x-request-id': 'trace-123.abc' } });
  t.is(given.headers.get('x-request-id'), 'trace-123.abc');

  const insane = await api.request('GET', '/live', { headers: { 'x-request-id': 'x'.repeat(300) } });
  t.regex(insane.headers.get('x-request-id') ?? '', /^req_/);
});

test("an error body names its request id, the caller's own when it sent one", async (t) => {
  const refused = await api.request('GET', '/knowledge-bases', { headers: { 'x-request-id': 'support-case-42' } });
  t.is(refused.status, 401);
  t.is(refused.body.error.requestId, 'support-case-42');

  const unknown = await api.request('GET', '/no/such/route');
  t.regex(unknown.body.error.requestId, /^req_[0-9a-f-]{36}$/);
  t.is(unknown.body.error.requestId, unknown.headers.get('x-request-id'));
});

test('answers are never cached or sniffed', async (t) => {
  const response = await api.request('GET', '/live');
  t.is(response.headers.get('cache-control'), 'no-store');
  t.is(response.headers.get('x-content-type-options'), 'nosniff');
});

test('the log has one line per request and never a secret', async (t) => {
  const { tenant, key, headers } = await createTenantWithKey(api, ['iq:read']);
  const user = await api.admin('POST', `/admin/tenants/${tenant.id}/users`, {
    name: 'Ada',
    email: 'ada@example.com',
    role: 'admin',
  });
  await api.request('GET', `/knowledge-bases?token=${user.body.token}`, { headers });

  const requestLine = logLines
    .map((line) => JSON.parse(line))
    .find((entry) => entry.path === '/knowledge-bases' && entry.apiKeyPrefix === key.prefix);
  t.truthy(requestLine, 'the request is logged with the key prefix');
  t.is(requestLine.status, 200);
  t.is(requestLine.tenantId, tenant.id);
  t.is(typeof requestLine.durationMs, 'number');

  const everything = logLines.join('\n');
  for (const secret of [key.key, user.body.token, api.adminToken]) t.false(everything.includes(secret));
});
