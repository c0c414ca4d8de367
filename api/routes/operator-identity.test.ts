import { randomBytes } from 'node:crypto';
import test from 'ava';
import { createTenant, createUser, startTestApi, type TestApi } from '#testing/api.js';
import { hmacIdentityToken, jwtIdentityToken } from '#testing/identity.js';
import { captureLogLines } from '#testing/log-capture.js';

/** Every log line the API writes, to check that no identity secret, token or session reaches it. */
const { lines: logLines, sink: logSink } = captureLogLines();

let api: TestApi;
test.before(async () => {
  api = await startTestApi({}, logSink);
});
test.after.always(() => api?.close());

/** A tenant admin and an operator with an identity secret, on `target`. */
async function operatorWithSecret(target: TestApi) {
  const tenant = await createTenant(target, 'Shop');
  const admin = await createUser(target, tenant.id, 'admin');
  const operator = (await target.admin('POST', `/admin/tenants/${tenant.id}/operators`, { name: 'Assistant' })).body;
  const created = await target.request('POST', `/integrations/operators/${operator.id}/identity-secret`, {
    headers: admin.headers,
  });
  return { operator, admin, secret: created.body.secret as string };
}

test('identity secrets, identity tokens and visitor sessions never reach the log', async (t) => {
  const { operator, admin, secret } = await operatorWithSecret(api);
  const rotated = await api.request('POST', `/integrations/operators/${operator.id}/identity-secret`, {
    headers: admin.headers,
    body: { graceSeconds: 60 },
  });
  const token = hmacIdentityToken(rotated.body.secret, 'user-1');
  const jwt = jwtIdentityToken(secret, { sub: 'user-1', email: 'ada@example.com' });
  const headers = { 'x-operator-key': operator.operatorKey };
  t.is((await api.request('POST', '/chat/conversations', { headers, body: { identityToken: token } })).status, 201);
  t.is((await api.request('POST', '/chat/conversations', { headers, body: { identityToken: token } })).status, 401);
  const session = await api.request('POST', '/chat/identity', { headers, body: { identityToken: jwt } });
  t.is(session.status, 201);

  const logged = logLines.join('\n');
  t.true(logged.includes('/chat/identity'), 'the requests were logged');
  for (const value of [secret, rotated.body.secret, token, jwt, session.body.visitorToken])
    t.false(logged.includes(value), 'a secret, token or session in the log');
});

test('reseal covers identity secrets: after a key rotation the same secret still verifies tokens', async (t) => {
  const oldKey = randomBytes(32).toString('base64');
  const newKey = randomBytes(32).toString('base64');
  const before = await startTestApi({ SECRETS_KEY: oldKey });
  const apis = [before];
  t.teardown(() => Promise.all(apis.map((each) => each.close())));
  const { operator, secret } = await operatorWithSecret(before);
  const servedWith = async (keys: Record<string, string>) => {
    const served = await startTestApi({ REDIS_PREFIX: before.config.redis.prefix, ADMIN_TOKEN: before.adminToken, ...keys });
    apis.push(served);
    return served;
  };

  const tooEarly = await servedWith({ SECRETS_KEY: newKey });
  t.deepEqual((await tooEarly.admin('POST', '/admin/secrets/reseal')).body.unopened, [
    { kind: 'operator-identity', id: operator.id, reason: 'unknown_key' },
  ]);
  const rotating = await servedWith({ SECRETS_KEY: newKey, SECRETS_PREVIOUS_KEYS: oldKey });
  t.deepEqual((await rotating.admin('POST', '/admin/secrets/reseal')).body, { records: 1, unopened: [] });

  const after = await servedWith({ SECRETS_KEY: newKey });
  const started = await after.request('POST', '/chat/conversations', {
    headers: { 'x-operator-key': operator.operatorKey },
    body: { identityToken: hmacIdentityToken(secret, 'user-1') },
  });
  t.is(started.status, 201, JSON.stringify(started.body));
});
