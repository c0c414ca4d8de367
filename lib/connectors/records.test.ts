import { randomBytes, randomUUID } from 'node:crypto';
import test from 'ava';
import { useTestRedis } from '#testing/redis.js';
import { createSecretBox, keyIdOf, SecretBoxError } from '#platform/secret-box.js';
import { createConnectorRecords, type NewConnector, type ShopConnector } from './records.js';
import { connectorKeys } from './redis-keys.js';

const testRedis = useTestRedis(test);
const { prefix } = testRedis;
const keys = connectorKeys(prefix);
const keyA = randomBytes(32);
const keyB = randomBytes(32);

const recordsWith = (current: Buffer, previous: Buffer[] = [], now?: () => Date) =>
  createConnectorRecords(testRedis.redis(), prefix, createSecretBox({ current, previous }), now);

const secretFields = ['ingestionKeySealed', 'accessTokenSealed', 'webhookSecretSealed', 'applicationPasswordSealed'];

function newShop(): Extract<NewConnector, { kind: 'shop' }> {
  return {
    kind: 'shop',
    name: 'Northwind shop',
    knowledgeBaseId: randomUUID(),
    apiKeyId: randomUUID(),
    syncEveryMinutes: 60,
    shop: { adminUrl: 'https://northwind.example', apiVersion: '2025-01', pageSize: 100 },
    secrets: {
      ingestionKey: `kb_${randomBytes(24).toString('base64url')}`,
      accessToken: `shpat_${randomBytes(16).toString('hex')}`,
      webhookSecret: randomBytes(16).toString('hex'),
    },
  };
}

function newCms(): Extract<NewConnector, { kind: 'cms' }> {
  return {
    kind: 'cms',
    name: 'Company blog',
    knowledgeBaseId: randomUUID(),
    apiKeyId: randomUUID(),
    syncEveryMinutes: 30,
    cms: { siteUrl: 'https://blog.example', username: 'editor' },
    fullSyncEveryHours: 24,
    secrets: {
      ingestionKey: `kb_${randomBytes(24).toString('base64url')}`,
      applicationPassword: randomBytes(12).toString('hex'),
    },
  };
}

test('a shop and a cms connector are created with their settings and read back by id, by tenant and by webhook path', async (t) => {
  const times = [new Date('2025-03-01T10:00:00.000Z'), new Date('2025-03-01T09:00:00.000Z')];
  const records = recordsWith(keyA, [], () => times.shift()!);
  const tenantId = randomUUID();
  const shopInput = newShop();
  const cmsInput = newCms();

  const shop = await records.create(tenantId, shopInput);
  const cms = await records.create(tenantId, cmsInput);
  const { secrets: _shopSecrets, ...shopSettings } = shopInput;
  const { secrets: _cmsSecrets, ...cmsSettings } = cmsInput;

  t.like(shop, { ...shopSettings, tenantId, integrationId: `shop-${shop.id}`, createdAt: '2025-03-01T10:00:00.000Z' });
  t.like(cms, { ...cmsSettings, tenantId, integrationId: `cms-${cms.id}`, createdAt: '2025-03-01T09:00:00.000Z' });
  t.regex(shop.id, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  t.not(shop.id, cms.id);
  t.false('secrets' in shop || 'secrets' in cms);
  t.false('webhookPath' in cms);
  const { webhookPath } = shop as ShopConnector;
  t.regex(webhookPath, /^[A-Za-z0-9_-]{32}$/);
  t.is(Buffer.from(webhookPath, 'base64url').length, 24);

  t.deepEqual(await records.get(shop.id), shop);
  t.deepEqual(await records.get(cms.id), cms);
  // The cms connector was created second but is older: oldest first.
  t.deepEqual(await records.listForTenant(tenantId), [cms, shop]);
  t.deepEqual(await records.getByWebhookPath(webhookPath), shop);
});

test("a tenant's list holds only its own connectors", async (t) => {
  const records = recordsWith(keyA);
  const tenantId = randomUUID();
  const own = await records.create(tenantId, newCms());
  await records.create(randomUUID(), newShop());
  t.deepEqual(await records.listForTenant(tenantId), [own]);
  t.deepEqual(await records.listForTenant(randomUUID()), []);
});

test('unknown ids, malformed ids and malformed or unknown webhook paths find nothing', async (t) => {
  const records = recordsWith(keyA);
  const shop = (await records.create(randomUUID(), newShop())) as ShopConnector;

  t.is(await records.get(randomUUID()), undefined);
  t.is(await records.get('not-a-uuid'), undefined);
  t.is(await records.get(shop.id.toUpperCase()), undefined);
  t.is(await records.get(`${shop.id}x`), undefined);

  t.is(await records.getByWebhookPath(randomBytes(24).toString('base64url')), undefined, 'well-formed but unknown');
  t.is(await records.getByWebhookPath(shop.webhookPath.slice(1)), undefined, 'too short');
  t.is(await records.getByWebhookPath(`${shop.webhookPath}A`), undefined, 'too long');
  t.is(await records.getByWebhookPath(`../${shop.webhookPath.slice(3)}`), undefined, 'other characters');
  t.is(await records.getByWebhookPath(''), undefined);

  // A look-up under a malformed path is never even read.
  const malformed = `${'a'.repeat(30)}:*`;
  await testRedis.redis().set(keys.byWebhookPath(malformed), shop.id);
  t.is(await records.getByWebhookPath(malformed), undefined);
});

test('a webhook path finds only shops', async (t) => {
  const records = recordsWith(keyA);
  const cms = await records.create(randomUUID(), newCms());
  const path = randomBytes(24).toString('base64url');
  await testRedis.redis().set(keys.byWebhookPath(path), cms.id);
  t.is(await records.getByWebhookPath(path), undefined);
});

test('secretsOf gives back the secrets given; the hash holds none of them in plain text', async (t) => {
  const records = recordsWith(keyA);
  const shopInput = newShop();
  const cmsInput = newCms();
  const shop = await records.create(randomUUID(), shopInput);
  const cms = await records.create(randomUUID(), cmsInput);

  t.deepEqual(await records.secretsOf(shop), shopInput.secrets);
  t.deepEqual(await records.secretsOf({ id: cms.id }), cmsInput.secrets);

  for (const [connector, secrets] of [
    [shop, shopInput.secrets],
    [cms, cmsInput.secrets],
  ] as const) {
    const stored = await testRedis.redis().hGetAll(keys.connector(connector.id));
    const raw = JSON.stringify(stored);
    for (const secret of Object.values(secrets)) t.false(raw.includes(secret));
    t.false(stored.record!.includes('ingestionKey'));
    for (const [name, field] of [
      ['ingestionKey', 'ingestionKeySealed'],
      ['accessToken', 'accessTokenSealed'],
      ['webhookSecret', 'webhookSecretSealed'],
      ['applicationPassword', 'applicationPasswordSealed'],
    ] as const) {
      if (name in secrets) t.regex(stored[field]!, /^v1\.[0-9a-f]{8}\./, field);
      else t.is(stored[field] ?? '', '', `${field} is empty when no ${name} was given`);
    }
  }

  await t.throwsAsync(records.secretsOf({ id: randomUUID() }), { message: /No connector/ });
});

test("a sealed value copied into another connector's hash does not open there", async (t) => {
  const records = recordsWith(keyA);
  const tenantId = randomUUID();
  const victim = await records.create(tenantId, newShop());
  const attacker = await records.create(tenantId, newShop());
  const stolen = await testRedis.redis().hGet(keys.connector(victim.id), 'accessTokenSealed');
  await testRedis.redis().hSet(keys.connector(attacker.id), 'accessTokenSealed', stolen!);
  await t.throwsAsync(records.secretsOf(attacker), { instanceOf: SecretBoxError });

  const otherTenant = await records.create(randomUUID(), newShop());
  const key = await testRedis.redis().hGet(keys.connector(victim.id), 'ingestionKeySealed');
  await testRedis.redis().hSet(keys.connector(otherTenant.id), 'ingestionKeySealed', key!);
  await t.throwsAsync(records.secretsOf(otherTenant), { instanceOf: SecretBoxError });
});

test('a sealed value copied into another field of the same connector does not open', async (t) => {
  const records = recordsWith(keyA);
  const shop = await records.create(randomUUID(), newShop());
  const token = await testRedis.redis().hGet(keys.connector(shop.id), 'accessTokenSealed');
  await testRedis.redis().hSet(keys.connector(shop.id), 'webhookSecretSealed', token!);
  await t.throwsAsync(records.secretsOf(shop), { instanceOf: SecretBoxError });
});

test('after a key rotation, secrets still open and are sealed again with the new key', async (t) => {
  const shopInput = newShop();
  const shop = await recordsWith(keyA).create(randomUUID(), shopInput);
  const before = await testRedis.redis().hGetAll(keys.connector(shop.id));

  await t.throwsAsync(recordsWith(keyB).secretsOf(shop), { instanceOf: SecretBoxError });

  t.deepEqual(await recordsWith(keyB, [keyA]).secretsOf(shop), shopInput.secrets);
  const after = await testRedis.redis().hGetAll(keys.connector(shop.id));
  for (const field of ['ingestionKeySealed', 'accessTokenSealed', 'webhookSecretSealed']) {
    t.is(before[field]!.split('.')[1], keyIdOf(keyA));
    t.not(after[field], before[field], `${field} was sealed again`);
    t.is(after[field]!.split('.')[1], keyIdOf(keyB), `${field} is sealed with the new key`);
  }
  t.is(after.applicationPasswordSealed ?? '', '', 'an absent secret stays absent');
  t.is(after.record, before.record);

  // The old key can now be retired.
  t.deepEqual(await recordsWith(keyB).secretsOf(shop), shopInput.secrets);
});

test('remove deletes the record, its webhook look-up, its tenant index entry and its sync state', async (t) => {
  const records = recordsWith(keyA);
  const tenantId = randomUUID();
  const shop = (await records.create(tenantId, newShop())) as ShopConnector;
  const cms = await records.create(tenantId, newCms());
  const keep = await records.create(tenantId, newShop());
  await testRedis.redis().hSet(keys.syncState(shop.id), 'watermark', '2025-03-01T00:00:00.000Z');
  await testRedis.redis().sAdd(keys.known(shop.id), 'a');
  await testRedis.redis().hSet(keys.fingerprints(shop.id), 'a', 'x:y');

  await records.remove(shop);
  await records.remove(cms);

  t.is(await records.get(shop.id), undefined);
  t.is(await records.get(cms.id), undefined);
  t.is(await records.getByWebhookPath(shop.webhookPath), undefined);
  t.deepEqual(await records.listForTenant(tenantId), [keep]);
  t.deepEqual(await testRedis.redis().zRange(keys.ofTenant(tenantId), 0, -1), [keep.id]);
  const left = [
    keys.connector(shop.id),
    keys.connector(cms.id),
    keys.byWebhookPath(shop.webhookPath),
    keys.syncState(shop.id),
    keys.known(shop.id),
    keys.fingerprints(shop.id),
  ];
  t.is(await testRedis.redis().exists(left), 0);
  await t.throwsAsync(records.secretsOf(shop), { message: /No connector/ });
  t.deepEqual(await records.get(keep.id), keep);
});

test('sealed fields are the only secret-bearing fields of the hash', async (t) => {
  const records = recordsWith(keyA);
  const shop = await records.create(randomUUID(), newShop());
  const fields = Object.keys(await testRedis.redis().hGetAll(keys.connector(shop.id))).sort();
  t.deepEqual(fields, ['record', 'tenantId', ...secretFields].sort());
});
