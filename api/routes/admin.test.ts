import test from 'ava';
import { createTenant, startTestApi, type TestApi } from '#testing/api.js';
import { assertMatchesSchema } from '#testing/schema.js';
import { errorBody } from '../schemas/common.js';
import {
  apiKeyResponse,
  createdApiKeyResponse,
  createdUserResponse,
  knowledgeBaseResponse,
  operatorResponse,
  tenantResponse,
  userResponse,
} from '../schemas/admin.js';

let api: TestApi;
test.before(async () => {
  api = await startTestApi();
});
test.after.always(() => api?.close());

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const iso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

test('POST /admin/tenants creates a tenant with a default knowledge base', async (t) => {
  const response = await api.admin('POST', '/admin/tenants', { name: 'Acme' });
  t.is(response.status, 201);
  assertMatchesSchema(t, tenantResponse, response.body);
  t.regex(response.body.id, uuid);
  t.regex(response.body.defaultKnowledgeBaseId, uuid);
  t.regex(response.body.createdAt, iso);

  const kbs = await api.admin('GET', `/admin/tenants/${response.body.id}/knowledge-bases`);
  t.deepEqual(
    kbs.body.knowledgeBases.map((kb: { id: string; isDefault: boolean }) => [kb.id, kb.isDefault]),
    [[response.body.defaultKnowledgeBaseId, true]],
  );
});

test('GET /admin/tenants/{id} reads a tenant, 404 for an unknown one', async (t) => {
  const tenant = await createTenant(api);
  const found = await api.admin('GET', `/admin/tenants/${tenant.id}`);
  t.is(found.status, 200);
  t.deepEqual(found.body, { ...tenant });

  const missing = await api.admin('GET', '/admin/tenants/00000000-0000-4000-8000-000000000000');
  t.is(missing.status, 404);
  assertMatchesSchema(t, errorBody, missing.body);
  t.is(missing.body.error.code, 'not_found');
});

test('POST /admin/tenants/{id}/knowledge-bases creates a UUID-identified knowledge base', async (t) => {
  const tenant = await createTenant(api);
  const response = await api.admin('POST', `/admin/tenants/${tenant.id}/knowledge-bases`, { name: 'Help centre' });
  t.is(response.status, 201);
  assertMatchesSchema(t, knowledgeBaseResponse, response.body);
  t.regex(response.body.id, uuid);
  t.is(response.body.name, 'Help centre');
  t.false(response.body.isDefault);

  const list = await api.admin('GET', `/admin/tenants/${tenant.id}/knowledge-bases`);
  t.deepEqual(
    list.body.knowledgeBases.map((kb: { name: string }) => kb.name),
    ['Acme', 'Help centre'],
  );
  t.is((await api.admin('POST', '/admin/tenants/nope/knowledge-bases', { name: 'x' })).status, 404);
});

test('POST /admin/tenants/{id}/api-keys shows the secret once; listing never does', async (t) => {
  const tenant = await createTenant(api);
  const created = await api.admin('POST', `/admin/tenants/${tenant.id}/api-keys`, {
    name: 'Shop sync',
    scopes: ['iq:import', 'iq:read'],
    expiresAt: '2030-01-01T00:00:00Z',
  });
  t.is(created.status, 201);
  assertMatchesSchema(t, createdApiKeyResponse, created.body);
  t.regex(created.body.key, /^kb_sk_[A-Za-z0-9_-]{43}$/);
  t.true(created.body.key.startsWith(created.body.prefix));
  t.is(created.body.expiresAt, '2030-01-01T00:00:00.000Z');
  t.true(created.body.active);

  const list = await api.admin('GET', `/admin/tenants/${tenant.id}/api-keys`);
  t.is(list.status, 200);
  t.is(list.body.apiKeys.length, 1);
  assertMatchesSchema(t, apiKeyResponse, list.body.apiKeys[0]);
  t.false(JSON.stringify(list.body).includes(created.body.key));
  const { key: _secret, ...withoutSecret } = created.body;
  t.deepEqual(list.body.apiKeys[0], withoutSecret);
});

test('API key creation accepts exactly the contract scopes, and past expiry dates', async (t) => {
  const tenant = await createTenant(api);
  const bad = await api.admin('POST', `/admin/tenants/${tenant.id}/api-keys`, { name: 'k', scopes: ['iq:import', 'admin:all'] });
  t.is(bad.status, 400);
  t.is(bad.body.error.code, 'invalid_payload');
  t.deepEqual(
    bad.body.error.details.map((d: { path: string }) => d.path),
    ['/scopes/1'],
  );

  const none = await api.admin('POST', `/admin/tenants/${tenant.id}/api-keys`, { name: 'k', scopes: [] });
  t.is(none.status, 400);

  const reserved = await api.admin('POST', `/admin/tenants/${tenant.id}/api-keys`, {
    name: 'k',
    scopes: ['iq:embed', 'iq:enrich', 'iq:diagnostics', 'usage:read', 'articles:read'],
    expiresAt: '2000-01-01T00:00:00.000Z',
  });
  t.is(reserved.status, 201);
  t.is(reserved.body.expiresAt, '2000-01-01T00:00:00.000Z');
});

test('PATCH /admin/tenants/{id}/api-keys/{keyId} deactivates, and only deactivates', async (t) => {
  const tenant = await createTenant(api);
  const key = (await api.admin('POST', `/admin/tenants/${tenant.id}/api-keys`, { name: 'k', scopes: ['iq:read'] })).body;

  const reactivate = await api.admin('PATCH', `/admin/tenants/${tenant.id}/api-keys/${key.id}`, { active: true });
  t.is(reactivate.status, 400);

  const response = await api.admin('PATCH', `/admin/tenants/${tenant.id}/api-keys/${key.id}`, { active: false });
  t.is(response.status, 200);
  assertMatchesSchema(t, apiKeyResponse, response.body);
  t.false(response.body.active);
  t.is(response.body.key, undefined);

  const other = await createTenant(api, 'Other');
  t.is((await api.admin('PATCH', `/admin/tenants/${other.id}/api-keys/${key.id}`, { active: false })).status, 404);
  t.is((await api.admin('PATCH', `/admin/tenants/${tenant.id}/api-keys/nope`, { active: false })).status, 404);
});

test('POST /admin/tenants/{id}/operators makes an op_ key on the default knowledge base', async (t) => {
  const tenant = await createTenant(api);
  const response = await api.admin('POST', `/admin/tenants/${tenant.id}/operators`, {
    name: 'Support bot',
    allowedDomains: ['example.com', '*.example.com', 'https://app.example.com'],
    locale: 'de',
  });
  t.is(response.status, 201);
  assertMatchesSchema(t, operatorResponse, response.body);
  t.regex(response.body.operatorKey, /^op_/);
  t.is(response.body.knowledgeBaseId, tenant.defaultKnowledgeBaseId);
  t.deepEqual(response.body.allowedDomains, ['example.com', '*.example.com', 'https://app.example.com']);
  t.is(response.body.locale, 'de');

  const plain = await api.admin('POST', `/admin/tenants/${tenant.id}/operators`, { name: 'Open bot' });
  t.deepEqual(plain.body.allowedDomains, []);
  t.is(plain.body.locale, null);

  const list = await api.admin('GET', `/admin/tenants/${tenant.id}/operators`);
  t.deepEqual(
    list.body.operators.map((o: { name: string }) => o.name),
    ['Support bot', 'Open bot'],
  );
});

test('operators refuse bad domain patterns and another tenant’s knowledge base', async (t) => {
  const tenant = await createTenant(api);
  const other = await createTenant(api, 'Other');
  const badDomain = await api.admin('POST', `/admin/tenants/${tenant.id}/operators`, {
    name: 'bot',
    allowedDomains: ['example.com', 'not a domain', 'ftp://x.com'],
  });
  t.is(badDomain.status, 400);
  t.deepEqual(
    badDomain.body.error.details.map((d: { path: string }) => d.path),
    ['/allowedDomains/1', '/allowedDomains/2'],
  );

  const foreign = await api.admin('POST', `/admin/tenants/${tenant.id}/operators`, {
    name: 'bot',
    knowledgeBaseId: other.defaultKnowledgeBaseId,
  });
  t.is(foreign.status, 403);
  t.is(foreign.body.error.code, 'forbidden');

  const unknown = await api.admin('POST', `/admin/tenants/${tenant.id}/operators`, {
    name: 'bot',
    knowledgeBaseId: '00000000-0000-4000-8000-000000000000',
  });
  t.is(unknown.status, 404);
});

test('PATCH /admin/tenants/{id}/operators/{operatorId} changes only what is sent', async (t) => {
  const tenant = await createTenant(api);
  const second = (await api.admin('POST', `/admin/tenants/${tenant.id}/knowledge-bases`, { name: 'Second' })).body;
  const operator = (await api.admin('POST', `/admin/tenants/${tenant.id}/operators`, { name: 'bot', locale: 'en' })).body;

  const response = await api.admin('PATCH', `/admin/tenants/${tenant.id}/operators/${operator.id}`, {
    knowledgeBaseId: second.id,
    allowedDomains: ['shop.example.com'],
  });
  t.is(response.status, 200);
  assertMatchesSchema(t, operatorResponse, response.body);
  t.is(response.body.knowledgeBaseId, second.id);
  t.deepEqual(response.body.allowedDomains, ['shop.example.com']);
  t.is(response.body.name, 'bot');
  t.is(response.body.locale, 'en');
  t.is(response.body.operatorKey, operator.operatorKey);
  t.true(response.body.updatedAt >= operator.updatedAt);

  t.is((await api.admin('PATCH', `/admin/tenants/${tenant.id}/operators/${operator.id}`, {})).status, 400);
  t.is((await api.admin('PATCH', `/admin/tenants/${tenant.id}/operators/nope`, { name: 'x' })).status, 404);
});

test('POST /admin/tenants/{id}/users shows the token once; e-mails are unique per tenant', async (t) => {
  const tenant = await createTenant(api);
  const response = await api.admin('POST', `/admin/tenants/${tenant.id}/users`, {
    name: 'Ada',
    email: 'ada@example.com',
    role: 'agent',
  });
  t.is(response.status, 201);
  assertMatchesSchema(t, createdUserResponse, response.body);
  t.regex(response.body.token, /^kb_ut_/);

  const again = await api.admin('POST', `/admin/tenants/${tenant.id}/users`, {
    name: 'Ada 2',
    email: 'ADA@example.com',
    role: 'admin',
  });
  t.is(again.status, 409);
  t.is(again.body.error.code, 'conflict');

  const badRole = await api.admin('POST', `/admin/tenants/${tenant.id}/users`, {
    name: 'Bob',
    email: 'bob@example.com',
    role: 'owner',
  });
  t.is(badRole.status, 400);
  t.regex(badRole.body.error.details[0].message, /must be one of "admin", "agent"/);

  const list = await api.admin('GET', `/admin/tenants/${tenant.id}/users`);
  t.is(list.body.users.length, 1);
  assertMatchesSchema(t, userResponse, list.body.users[0]);
  t.false(JSON.stringify(list.body).includes(response.body.token));
});

test('the admin routes want the admin token and nothing else', async (t) => {
  const tenant = await createTenant(api);
  const key = (await api.admin('POST', `/admin/tenants/${tenant.id}/api-keys`, { name: 'k', scopes: ['iq:import'] })).body.key;

  const missing = await api.request('POST', '/admin/tenants', { body: { name: 'x' } });
  t.is(missing.status, 401);
  t.is(missing.body.error.code, 'unauthorized');

  const wrong = await api.request('GET', `/admin/tenants/${tenant.id}`, { headers: { authorization: 'Bearer adm_wrong' } });
  t.is(wrong.status, 401);

  const apiKey = await api.request('GET', `/admin/tenants/${tenant.id}`, { headers: { 'x-api-key': key } });
  t.is(apiKey.status, 401);
  const apiKeyAsBearer = await api.request('GET', `/admin/tenants/${tenant.id}`, { headers: { authorization: `Bearer ${key}` } });
  t.is(apiKeyAsBearer.status, 401);
});
