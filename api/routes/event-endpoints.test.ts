import test, { type ExecutionContext } from 'ava';
import { createTenant, everythingStored, startTestApi, type TestApi } from '#testing/api.js';
import { captureLogLines } from '#testing/log-capture.js';
import { createEventEndpoints } from '#outbound-events/endpoints.js';
import { secretBoxFromConfig } from '#platform/secret-box.js';
import { assertMatchesSchema } from '#testing/schema.js';
import { errorBody } from '../schemas/common.js';
import {
  createdEventEndpointResponse,
  deliveryListResponse,
  eventEndpointListResponse,
  eventEndpointResponse,
  rotatedSecretResponse,
} from '../schemas/event-endpoints.js';

/*
 * The routes of event endpoints, against the real API and Redis (no worker: nothing is delivered
 * here; lib/outbound-events/delivery.test.ts follows events to a receiver).
 */

const { lines: logLines, sink: logSink } = captureLogLines();

let api: TestApi;
test.before(async () => {
  api = await startTestApi({}, logSink);
});
test.after.always(() => api?.close());

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function newTenant(target: TestApi = api) {
  const tenant = await createTenant(target, 'Shop');
  const user = async (role: string) =>
    bearer(
      (await target.admin('POST', `/admin/tenants/${tenant.id}/users`, { name: role, email: `${role}@shop.example`, role })).body
        .token,
    );
  return { tenant, admin: await user('admin'), agent: await user('agent') };
}

const register = (headers: Record<string, string>, body: unknown, target: TestApi = api) =>
  target.request('POST', '/integrations/event-endpoints', { headers, body });

const validBody = { url: 'https://hooks.shop.example/kb', eventTypes: ['conversation.created', 'message.created'] };

function assertError(t: ExecutionContext, response: { status: number; body: any }, status: number, code: string) {
  t.is(response.status, status, JSON.stringify(response.body));
  assertMatchesSchema(t, errorBody, response.body);
  t.is(response.body?.error?.code, code);
  return response.body?.error as { details?: Array<{ path: string; message: string }> };
}

test('an admin registers an endpoint: the signing secret is shown once, sealed at rest and never logged', async (t) => {
  const { admin } = await newTenant();
  const created = await register(admin, { ...validBody, description: 'CRM bridge' });
  t.is(created.status, 201, JSON.stringify(created.body));
  assertMatchesSchema(t, createdEventEndpointResponse, created.body);
  const { signingSecret, ...endpoint } = created.body;
  t.like(endpoint, { ...validBody, description: 'CRM bridge', status: 'active', disabledReason: null, disabledAt: null });

  const read = await api.request('GET', `/integrations/event-endpoints/${endpoint.id}`, { headers: admin });
  t.is(read.status, 200);
  assertMatchesSchema(t, eventEndpointResponse, read.body);
  t.deepEqual(read.body, endpoint, 'the same record, without its secret');
  const listed = await api.request('GET', '/integrations/event-endpoints', { headers: admin });
  assertMatchesSchema(t, eventEndpointListResponse, listed.body);
  t.deepEqual(listed.body.endpoints, [endpoint]);

  const rotated = await api.request('POST', `/integrations/event-endpoints/${endpoint.id}/rotate-secret`, { headers: admin });
  t.is(rotated.status, 200);
  assertMatchesSchema(t, rotatedSecretResponse, rotated.body);
  t.not(rotated.body.signingSecret, signingSecret);

  const deliveries = await api.request('GET', `/integrations/event-endpoints/${endpoint.id}/deliveries`, { headers: admin });
  t.is(deliveries.status, 200);
  assertMatchesSchema(t, deliveryListResponse, deliveries.body);
  t.deepEqual(deliveries.body, { deliveries: [] });

  const stored = await everythingStored(api);
  for (const secret of [signingSecret, rotated.body.signingSecret]) {
    t.false(stored.includes(secret), 'sealed in Redis');
    t.false(logLines.join('\n').includes(secret), 'never logged');
  }

  t.is((await api.request('DELETE', `/integrations/event-endpoints/${endpoint.id}`, { headers: admin })).status, 204);
  assertError(t, await api.request('GET', `/integrations/event-endpoints/${endpoint.id}`, { headers: admin }), 404, 'not_found');
  t.false((await everythingStored(api)).includes(endpoint.id), 'nothing of it is left');
});

test('registration refuses what is not an endpoint: a clear 400 naming the field', async (t) => {
  const { admin } = await newTenant();
  for (const [body, path] of [
    [{ eventTypes: ['message.created'] }, '/url'],
    [{ ...validBody, url: 'ftp://hooks.shop.example/kb' }, '/url'],
    [{ ...validBody, url: 'not a url' }, '/url'],
    // A credential in the address would be shown back to every admin of the tenant (security review, 2026-11b).
    [{ ...validBody, url: 'https://hooks:s3cret@hooks.shop.example/kb' }, '/url'],
    [{ ...validBody, url: 'https://hooks.shop.example/kb#part' }, '/url'],
    [{ ...validBody, eventTypes: [] }, '/eventTypes'],
    [{ ...validBody, eventTypes: ['message.deleted'] }, '/eventTypes/0'],
    [{ ...validBody, eventTypes: ['message.created', 'message.created'] }, '/eventTypes'],
    [{ ...validBody, secret: 'mine' }, ''],
  ] as const) {
    const error = assertError(t, await register(admin, body), 400, 'invalid_payload');
    t.true(
      error.details?.some((detail) => detail.path === path || detail.path.startsWith(`${path}/`)) ?? false,
      `${JSON.stringify(body)}: ${JSON.stringify(error.details)}`,
    );
  }
  const listed = await api.request('GET', '/integrations/event-endpoints', { headers: admin });
  t.deepEqual(listed.body.endpoints, []);
});

test('endpoints are for admins only, and no tenant sees or touches another tenant’s', async (t) => {
  const owner = await newTenant();
  const other = await newTenant();
  const { body: endpoint } = await register(owner.admin, validBody);

  assertError(t, await register(owner.agent, validBody), 403, 'forbidden');
  assertError(t, await api.request('GET', '/integrations/event-endpoints', { headers: owner.agent }), 403, 'forbidden');
  assertError(t, await api.request('GET', '/integrations/event-endpoints', {}), 401, 'unauthorized');

  const path = `/integrations/event-endpoints/${endpoint.id}`;
  for (const [method, suffix] of [
    ['GET', ''],
    ['DELETE', ''],
    ['GET', '/deliveries'],
    ['POST', '/enable'],
    ['POST', '/rotate-secret'],
  ] as const) {
    assertError(t, await api.request(method, `${path}${suffix}`, { headers: other.admin }), 403, 'forbidden');
  }
  t.deepEqual((await api.request('GET', '/integrations/event-endpoints', { headers: other.admin })).body, { endpoints: [] });
  assertError(
    t,
    await api.request('GET', '/integrations/event-endpoints/00000000-0000-4000-8000-000000000000', { headers: other.admin }),
    404,
    'not_found',
  );
  t.is((await api.request('GET', path, { headers: owner.admin })).status, 200, 'still there for its owner');
});

test('in production an endpoint must be https on a public host (the connectors’ rules)', async (t) => {
  const production = await startTestApi({ NODE_ENV: 'production', PUBLIC_BASE_URL: 'https://api.shop.example/' });
  t.teardown(() => production.close());
  const { admin } = await newTenant(production);
  for (const [url, problem] of [
    ['http://hooks.shop.example/kb', 'must use https'],
    ['https://169.254.169.254/latest', 'must be a public address'],
    ['https://[::1]:8443/', 'must be a public address'],
    ['https://10.0.0.8/hooks', 'must be a public address'],
    ['https://localhost/hooks', 'must be a public host name'],
    ['https://events.internal/hooks', 'must be a public host name'],
  ] as const) {
    const error = assertError(t, await register(admin, { ...validBody, url }, production), 400, 'invalid_payload');
    t.deepEqual(error.details, [{ path: '/url', message: problem }], url);
  }
  t.is((await register(admin, validBody, production)).status, 201);
});

test('an address stored with credentials before they were refused is shown without them', async (t) => {
  const { tenant, admin } = await newTenant();
  const endpoints = createEventEndpoints(api.redis, api.config.redis.prefix, secretBoxFromConfig(api.config));
  const { endpoint } = await endpoints.create(tenant.id, {
    url: 'https://hooks:s3cret@hooks.shop.example/kb',
    eventTypes: ['message.created'],
    description: '',
  });
  const read = await api.request('GET', `/integrations/event-endpoints/${endpoint.id}`, { headers: admin });
  t.is(read.status, 200);
  t.is(read.body.url, 'https://***@hooks.shop.example/kb');
  const listed = await api.request('GET', '/integrations/event-endpoints', { headers: admin });
  t.false(JSON.stringify(listed.body).includes('s3cret'));
});
