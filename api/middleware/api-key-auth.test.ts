import test from 'ava';
import { createTenantWithKey, startTestApi, type TestApi } from '#testing/api.js';

let api: TestApi;
test.before(async () => {
  api = await startTestApi();
});
test.after.always(() => api?.close());

test('a valid key with the scope reads its own knowledge bases', async (t) => {
  const { tenant, headers } = await createTenantWithKey(api, ['iq:read']);
  const list = await api.request('GET', '/knowledge-bases', { headers });
  t.is(list.status, 200);
  t.deepEqual(
    list.body.knowledgeBases.map((kb: { id: string }) => kb.id),
    [tenant.defaultKnowledgeBaseId],
  );

  const one = await api.request('GET', `/knowledge-bases/${tenant.defaultKnowledgeBaseId}`, { headers });
  t.is(one.status, 200);
  t.is(one.body.id, tenant.defaultKnowledgeBaseId);
  t.true(one.body.isDefault);
});

test('a missing key is 401', async (t) => {
  const response = await api.request('GET', '/knowledge-bases');
  t.is(response.status, 401);
  t.deepEqual(response.body, {
    error: {
      code: 'unauthorized',
      message: 'Missing API key: send it in the x-api-key header.',
      requestId: response.headers.get('x-request-id'),
    },
  });
});

test('an unknown key is 401', async (t) => {
  const response = await api.request('GET', '/knowledge-bases', { headers: { 'x-api-key': 'kb_sk_doesnotexist' } });
  t.is(response.status, 401);
  t.is(response.body.error.code, 'unauthorized');
});

test('a deactivated key is 401', async (t) => {
  const { tenant, key, headers } = await createTenantWithKey(api, ['iq:read']);
  await api.admin('PATCH', `/admin/tenants/${tenant.id}/api-keys/${key.id}`, { active: false });
  const response = await api.request('GET', '/knowledge-bases', { headers });
  t.is(response.status, 401);
  t.regex(response.body.error.message, /deactivated/);
});

test('an expired key is 403 key_expired', async (t) => {
  const { headers } = await createTenantWithKey(api, ['iq:read'], { expiresAt: new Date(Date.now() - 1000).toISOString() });
  const response = await api.request('GET', '/knowledge-bases', { headers });
  t.is(response.status, 403);
  t.is(response.body.error.code, 'key_expired');
});

test('a key that has not expired yet still works', async (t) => {
  const { headers } = await createTenantWithKey(api, ['iq:read'], { expiresAt: new Date(Date.now() + 3_600_000).toISOString() });
  t.is((await api.request('GET', '/knowledge-bases', { headers })).status, 200);
});

test('a key without the scope is 403 forbidden, naming the scope', async (t) => {
  const { headers } = await createTenantWithKey(api, ['iq:import', 'articles:read']);
  const response = await api.request('GET', '/knowledge-bases', { headers });
  t.is(response.status, 403);
  t.deepEqual(response.body, {
    error: {
      code: 'forbidden',
      message: 'This API key lacks the iq:read scope.',
      requestId: response.headers.get('x-request-id'),
    },
  });
});

test("another tenant's knowledge base is 403; one that exists nowhere is 404", async (t) => {
  const mine = await createTenantWithKey(api, ['iq:read']);
  const theirs = await createTenantWithKey(api, ['iq:read']);
  const foreign = await api.request('GET', `/knowledge-bases/${theirs.tenant.defaultKnowledgeBaseId}`, { headers: mine.headers });
  t.is(foreign.status, 403);
  t.is(foreign.body.error.code, 'forbidden');

  const nowhere = await api.request('GET', '/knowledge-bases/00000000-0000-4000-8000-000000000000', { headers: mine.headers });
  t.is(nowhere.status, 404);
  t.is(nowhere.body.error.code, 'not_found');
});

test('the admin token is not accepted as an API key', async (t) => {
  const bearer = await api.request('GET', '/knowledge-bases', { headers: { authorization: `Bearer ${api.adminToken}` } });
  t.is(bearer.status, 401);
  const asKey = await api.request('GET', '/knowledge-bases', { headers: { 'x-api-key': api.adminToken } });
  t.is(asKey.status, 401);
});
