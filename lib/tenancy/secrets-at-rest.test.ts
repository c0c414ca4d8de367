import test from 'ava';
import { everythingStored, startTestApi, type TestApi } from '#testing/api.js';
import { hashSecret } from './secrets.js';

let api: TestApi;
test.before(async () => {
  api = await startTestApi();
});
test.after.always(() => api?.close());

test('API keys and user tokens are stored only as SHA-256 hashes', async (t) => {
  const tenant = (await api.admin('POST', '/admin/tenants', { name: 'Acme' })).body;
  const key = (await api.admin('POST', `/admin/tenants/${tenant.id}/api-keys`, { name: 'k', scopes: ['iq:import'] })).body
    .key as string;
  const token = (
    await api.admin('POST', `/admin/tenants/${tenant.id}/users`, { name: 'Ada', email: 'ada@example.com', role: 'admin' })
  ).body.token as string;

  const stored = await everythingStored(api);
  t.false(stored.includes(key), 'the API key is not stored');
  t.false(stored.includes(key.slice(12)), 'nor its secret part');
  t.false(stored.includes(token), 'the user token is not stored');
  t.true(stored.includes(hashSecret(key)), 'the key is found by its hash');
  t.true(stored.includes(hashSecret(token)), 'the token is found by its hash');
});

test('records of one tenant are found only through that tenant', async (t) => {
  const first = (await api.admin('POST', '/admin/tenants', { name: 'First' })).body;
  const second = (await api.admin('POST', '/admin/tenants', { name: 'Second' })).body;
  await api.admin('POST', `/admin/tenants/${first.id}/api-keys`, { name: 'first key', scopes: ['iq:read'] });

  t.deepEqual(
    (await api.tenancy.listApiKeys(second.id)).map((k) => k.name),
    [],
  );
  t.deepEqual(
    (await api.tenancy.listApiKeys(first.id)).map((k) => k.name),
    ['first key'],
  );
  t.deepEqual(
    (await api.tenancy.listKnowledgeBases(second.id)).map((kb) => kb.id),
    [second.defaultKnowledgeBaseId],
  );
});
