import { randomBytes } from 'node:crypto';
import test from 'ava';
import { createMessagingConnections } from '#messaging/connections.js';
import { secretBoxFromConfig } from '#platform/secret-box.js';
import { createTenant, startTestApi, type TestApi } from '#testing/api.js';
import { deliver, statusUpdate } from '#testing/fake-messaging-platform.js';
import { captureLogLines } from '#testing/log-capture.js';

/*
 * The messaging webhook's guards that need no worker: what production refuses whatever a stored
 * record says (F13), what the request log leaves out (F27), and deliveries no Date can hold (F37).
 */

let development: TestApi;
let production: TestApi;
const log = captureLogLines();
test.before(async () => {
  [development, production] = await Promise.all([
    startTestApi({}, log.sink),
    startTestApi({ NODE_ENV: 'production', PUBLIC_BASE_URL: 'https://api.example.test' }),
  ]);
});
test.after.always(async () => {
  await Promise.all([development?.close(), production?.close()]);
});

const digits = (n: number) =>
  Array.from(randomBytes(n), (byte) => byte % 10)
    .join('')
    .replace(/^0/, '1');

/** A connection written straight to the store, as copied data or a promoted staging store would hold it. */
async function storedConnection(api: TestApi, fields: { developmentMode?: boolean; appSecret?: string }) {
  const tenant = await createTenant(api);
  const operator = (await api.admin('POST', `/admin/tenants/${tenant.id}/operators`, { name: 'Bot' })).body;
  const connection = await createMessagingConnections(api.redis, api.config.redis.prefix, secretBoxFromConfig(api.config)).create(
    tenant.id,
    {
      name: 'Shop',
      operatorId: operator.id,
      businessAccountId: digits(15),
      phoneNumberId: digits(15),
      phoneNumber: `+1555${digits(7)}`,
      apiVersion: 'v23.0',
      accessToken: `EAA${randomBytes(16).toString('hex')}`,
      ...fields,
    },
  );
  return { connection, webhookUrl: `${api.url}/webhooks/messaging_api/${connection.webhookPath}` };
}

const aStatusOf = (phoneNumberId: string) =>
  statusUpdate({ phoneNumberId, messageId: `wamid.${digits(20)}`, status: 'delivered', recipientId: digits(11) });

test('production refuses unsigned deliveries even for a stored development-mode connection', async (t) => {
  const stored = await storedConnection(production, { developmentMode: true });
  t.true(stored.connection.developmentMode);
  const refused = await deliver(stored.webhookUrl, aStatusOf(stored.connection.phoneNumberId), { signature: null });
  t.is(refused.status, 403);
  t.is(JSON.parse(refused.body).error.code, 'forbidden');
});

test('outside production a development-mode connection takes unsigned deliveries', async (t) => {
  const stored = await storedConnection(development, { developmentMode: true });
  const taken = await deliver(stored.webhookUrl, aStatusOf(stored.connection.phoneNumberId), { signature: null });
  t.is(taken.status, 200);
  t.like(JSON.parse(taken.body), { received: { statuses: 1 } });
});

test('the request log names the webhook route, never its address', async (t) => {
  const stored = await storedConnection(development, { developmentMode: true });
  await deliver(stored.webhookUrl, aStatusOf(stored.connection.phoneNumberId), { signature: null });
  await deliver(stored.webhookUrl, '{"not": "json"', { signature: null });
  const lines = log.lines.filter((line) => line.includes('/webhooks/'));
  t.true(lines.some((line) => JSON.parse(line).path === '/webhooks/messaging_api/{webhookPath}'));
  t.false(log.lines.some((line) => line.includes(stored.connection.webhookPath)));
});

test('a signed delivery with a time no Date can hold is not a server error', async (t) => {
  const appSecret = randomBytes(16).toString('hex');
  const stored = await storedConnection(development, { appSecret });
  const delivery = aStatusOf(stored.connection.phoneNumberId);
  delivery.entry[0].changes[0].value.statuses[0].timestamp = '99999999999999';
  const answer = await deliver(stored.webhookUrl, delivery, { appSecret });
  t.is(answer.status, 200);
  t.like(JSON.parse(answer.body), { received: { messages: 0, statuses: 0 } });
});
