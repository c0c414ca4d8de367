import { randomBytes, randomUUID } from 'node:crypto';
import test from 'ava';
import { useTestRedis } from '#testing/redis.js';
import { createMessagingConnections, PhoneNumberTakenError, type NewConnection } from './connections.js';
import { messagingKeys } from './redis-keys.js';
import { createSecretBox, keyIdOf, SecretBoxError } from '#platform/secret-box.js';

const testRedis = useTestRedis(test);
const { prefix } = testRedis;
const keys = messagingKeys(prefix);
const keyA = randomBytes(32);
const keyB = randomBytes(32);

const storeWith = (current: Buffer, previous: Buffer[] = []) =>
  createMessagingConnections(testRedis.redis(), prefix, createSecretBox({ current, previous }));

function newConnection(fields: Partial<NewConnection> = {}): NewConnection {
  return {
    name: 'Shop number',
    operatorId: randomUUID(),
    businessAccountId: '102290129340398',
    phoneNumberId: String(100_000_000_000_000 + Math.floor(Math.random() * 1e12)),
    phoneNumber: '+4915123456789',
    apiVersion: 'v23.0',
    accessToken: `EAAG${randomBytes(24).toString('base64url')}`,
    appSecret: randomBytes(16).toString('hex'),
    ...fields,
  };
}

test('a connection is created with a random webhook path and found by it, by id, by number and by tenant', async (t) => {
  const store = storeWith(keyA);
  const tenantId = randomUUID();
  const input = newConnection();
  const connection = await store.create(tenantId, input);

  t.not(connection.id, connection.credentialId);
  t.is(connection.status, 'active');
  t.true(connection.hasAppSecret);
  t.false(connection.developmentMode);
  t.is(connection.webhookPath.length, 32);
  t.is(Buffer.from(connection.webhookPath, 'base64url').length, 24);
  t.false(connection.webhookPath.includes(input.phoneNumberId));
  t.false('accessToken' in connection || 'appSecret' in connection || 'verifyToken' in connection);

  t.deepEqual(await store.get(connection.id), connection);
  t.deepEqual(await store.getByWebhookPath(connection.webhookPath), connection);
  t.deepEqual(await store.getByPhoneNumberId(tenantId, input.phoneNumberId), connection);
  t.is(await store.getByPhoneNumberId(randomUUID(), input.phoneNumberId), undefined);
  t.deepEqual(await store.listForTenant(tenantId), [connection]);
  t.deepEqual(await store.listForTenant(randomUUID()), []);
  t.is(await store.get(randomUUID()), undefined);
  t.is(await store.get('not-a-uuid'), undefined);
  t.is(await store.getByWebhookPath('x'.repeat(32)), undefined);
  t.is(await store.getByWebhookPath('../../etc'), undefined);
});

test('credentials come back decrypted; the stored record holds none of them in plain text', async (t) => {
  const store = storeWith(keyA);
  const input = newConnection();
  const connection = await store.create(randomUUID(), input);
  const credentials = await store.credentialsOf(connection);
  t.is(credentials.accessToken, input.accessToken);
  t.is(credentials.appSecret, input.appSecret);
  t.regex(credentials.verifyToken, /^[A-Za-z0-9_-]{43}$/);

  const stored = await testRedis.redis().hGetAll(keys.connection(connection.id));
  const raw = JSON.stringify(stored);
  for (const secret of [credentials.accessToken, credentials.appSecret!, credentials.verifyToken]) t.false(raw.includes(secret));
  for (const field of ['accessTokenSealed', 'appSecretSealed', 'verifyTokenSealed'])
    t.regex(stored[field]!, /^v1\.[0-9a-f]{8}\./);
  t.false(Object.keys(stored).some((field) => ['accessToken', 'appSecret', 'verifyToken'].includes(field)));
});

test('without an app secret, the connection says so and has no app secret to give', async (t) => {
  const store = storeWith(keyA);
  const { appSecret: _none, ...input } = newConnection();
  const connection = await store.create(randomUUID(), { ...input, developmentMode: true });
  t.false(connection.hasAppSecret);
  t.true(connection.developmentMode);
  const credentials = await store.credentialsOf(connection);
  t.is(credentials.appSecret, undefined);
  t.is(credentials.accessToken, input.accessToken);
});

test("one number, one connection, within a tenant; another tenant's claim locks no one out", async (t) => {
  const store = storeWith(keyA);
  const input = newConnection();
  const tenantId = randomUUID();
  const squatter = await store.create(randomUUID(), input);
  const first = await store.create(tenantId, newConnection({ phoneNumberId: input.phoneNumberId }));
  await t.throwsAsync(store.create(tenantId, newConnection({ phoneNumberId: input.phoneNumberId })), {
    instanceOf: PhoneNumberTakenError,
  });
  t.deepEqual(await store.getByPhoneNumberId(tenantId, input.phoneNumberId), first);
  t.not(squatter.webhookPath, first.webhookPath);
});

test('a removed connection is found no more, and its number can be connected again', async (t) => {
  const store = storeWith(keyA);
  const tenantId = randomUUID();
  const input = newConnection();
  const connection = await store.create(tenantId, input);
  await store.remove(connection);
  t.is(await store.get(connection.id), undefined);
  t.is(await store.getByWebhookPath(connection.webhookPath), undefined);
  t.is(await store.getByPhoneNumberId(tenantId, input.phoneNumberId), undefined);
  t.deepEqual(await store.listForTenant(tenantId), []);
  await t.throwsAsync(store.credentialsOf(connection));
  const again = await store.create(tenantId, newConnection({ phoneNumberId: input.phoneNumberId }));
  t.deepEqual(await store.getByPhoneNumberId(tenantId, input.phoneNumberId), again);
});

test('a sealed value moved to another connection does not open there', async (t) => {
  const store = storeWith(keyA);
  const victim = await store.create(randomUUID(), newConnection());
  const attacker = await store.create(randomUUID(), newConnection());
  const stolen = await testRedis.redis().hGet(keys.connection(victim.id), 'accessTokenSealed');
  await testRedis.redis().hSet(keys.connection(attacker.id), 'accessTokenSealed', stolen!);
  await t.throwsAsync(store.credentialsOf(attacker), { instanceOf: SecretBoxError, message: /another record/ });
});

test('after a key rotation, credentials still open and are re-sealed with the new key once read', async (t) => {
  const input = newConnection();
  const connection = await storeWith(keyA).create(randomUUID(), input);
  const before = await storeWith(keyA).credentialsOf(connection);

  await t.throwsAsync(storeWith(keyB).credentialsOf(connection), { instanceOf: SecretBoxError, message: /not configured/ });

  const rotated = storeWith(keyB, [keyA]);
  t.deepEqual(await rotated.credentialsOf(connection), before);
  const stored = await testRedis.redis().hGetAll(keys.connection(connection.id));
  for (const field of ['accessTokenSealed', 'appSecretSealed', 'verifyTokenSealed']) {
    t.is(stored[field]!.split('.')[1], keyIdOf(keyB), `${field} is sealed with the new key`);
  }

  // The old key can now be retired.
  t.deepEqual(await storeWith(keyB).credentialsOf(connection), before);
});

test('a refused token marks the connection token_invalid', async (t) => {
  const store = storeWith(keyA);
  const connection = await store.create(randomUUID(), newConnection());
  await store.markTokenInvalid(connection.id);
  const marked = await store.get(connection.id);
  t.is(marked?.status, 'token_invalid');
  t.not(marked?.updatedAt, undefined);
  t.deepEqual(await store.credentialsOf(connection), await store.credentialsOf({ id: connection.id }), 'its secrets are kept');
  const unknown = randomUUID();
  await store.markTokenInvalid(unknown);
  t.is(await testRedis.redis().exists(keys.connection(unknown)), 0, 'no record is made up for an unknown id');
});
