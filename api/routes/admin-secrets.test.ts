import { randomBytes, randomInt } from 'node:crypto';
import test from 'ava';
import { createTenant, startTestApi, type TestApi } from '#testing/api.js';

const key = () => randomBytes(32).toString('base64');

/** The same stored data (prefix, admin token) served by an API with the given keys. */
const servedWith = (first: TestApi, keys: Record<string, string>) =>
  startTestApi({ REDIS_PREFIX: first.config.redis.prefix, ADMIN_TOKEN: first.adminToken, ...keys });

async function connectANumber(api: TestApi) {
  const tenant = await createTenant(api, 'Shop');
  await api.admin('POST', `/admin/tenants/${tenant.id}/operators`, { name: 'Shop assistant' });
  const admin = await api.admin('POST', `/admin/tenants/${tenant.id}/users`, {
    name: 'A',
    email: 'a@shop.example',
    role: 'admin',
  });
  const response = await api.request('POST', '/integrations/credentials', {
    headers: { authorization: `Bearer ${admin.body.token}` },
    body: {
      type: 'messaging_api',
      name: 'Shop number',
      data: {
        accessToken: `EAAG${randomBytes(48).toString('base64url')}`,
        businessAccountId: '102938475610293',
        phoneNumberId: String(randomInt(100_000_000_000, 999_999_999_999)),
        phoneNumber: '+4915123456789',
        apiVersion: 'v23.0',
        appSecret: randomBytes(16).toString('hex'),
      },
    },
  });
  return response.body.connectionId as string;
}

test('reseal opens every sealed record, so the previous key can be retired even for records nobody read', async (t) => {
  const oldKey = key();
  const newKey = key();
  const before = await startTestApi({ SECRETS_KEY: oldKey });
  const apis = [before];
  t.teardown(() => Promise.all(apis.map((api) => api.close())));
  const connectionId = await connectANumber(before);

  // Retired too early, the old key leaves the record unopenable, and reseal says which one.
  const tooEarly = await servedWith(before, { SECRETS_KEY: newKey });
  apis.push(tooEarly);
  const refused = await tooEarly.admin('POST', '/admin/secrets/reseal');
  t.is(refused.status, 200);
  t.deepEqual(refused.body.unopened, [{ kind: 'messaging-connection', id: connectionId, reason: 'unknown_key' }]);

  // During rotation (both keys configured), reseal seals it again with the new key...
  const rotating = await servedWith(before, { SECRETS_KEY: newKey, SECRETS_PREVIOUS_KEYS: oldKey });
  apis.push(rotating);
  const resealed = await rotating.admin('POST', '/admin/secrets/reseal');
  t.deepEqual(resealed.body, { records: 1, unopened: [] });

  // ...so the new key alone now opens it.
  const after = await servedWith(before, { SECRETS_KEY: newKey });
  apis.push(after);
  t.deepEqual((await after.admin('POST', '/admin/secrets/reseal')).body, { records: 1, unopened: [] });
});

test('reseal is for the platform admin only', async (t) => {
  const api = await startTestApi();
  t.teardown(() => api.close());
  const response = await api.request('POST', '/admin/secrets/reseal', { headers: { authorization: 'Bearer wrong' } });
  t.is(response.status, 401);
});
