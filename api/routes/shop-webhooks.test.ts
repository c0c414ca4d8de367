import { randomUUID } from 'node:crypto';
import test from 'ava';
import { startTestApi, type TestApi } from '#testing/api.js';
import { connectingTenant } from '#testing/connectors.js';
import { startFakeShop, type FakeShop } from '#testing/fake-shop.js';

/*
 * Replays of a shop's webhooks (F28): only the body is signed, so a captured delivery sent again
 * with a fresh X-Shop-Webhook-Id is the same delivery, and a product changed long ago is a replay.
 * No worker serves this API's task queue: a delivery taken in only starts its workflow.
 */

let api: TestApi;
let shop: FakeShop;
let webhookUrl: string;
let removeConnector: () => Promise<unknown>;
test.before(async () => {
  api = await startTestApi({ TEMPORAL_TASK_QUEUE: `test-${randomUUID()}` });
  shop = await startFakeShop();
  shop.addProducts(2);
  const tenant = await connectingTenant(api);
  const created = await tenant.asAdmin('POST', '/connectors/shop', {
    name: 'Northwind shop',
    data: { adminUrl: shop.url, apiVersion: shop.apiVersion, accessToken: shop.accessToken, webhookSecret: shop.webhookSecret },
  });
  if (created.status !== 201) throw new Error(`connector not created: ${JSON.stringify(created.body)}`);
  webhookUrl = api.url + new URL(created.body.webhookUrl).pathname;
  removeConnector = () => tenant.asAdmin('DELETE', `/connectors/${created.body.id}`);
});
test.after.always(async () => {
  await removeConnector?.().catch(() => undefined);
  await shop?.close();
  await api?.close();
});

test('a delivery sent again with a fresh webhook id is a duplicate', async (t) => {
  const renamed = shop.updateProduct(shop.products()[0]!.id, { title: 'Aurora headlamp' });
  const first = await shop.sendWebhook(webhookUrl, 'products/update', renamed, { webhookId: randomUUID() });
  t.is(first.status, 200);
  t.like(await first.json(), { action: 'reingest' });

  const replayed = await shop.sendWebhook(webhookUrl, 'products/update', renamed, { webhookId: randomUUID() });
  t.is(replayed.status, 200);
  t.like(await replayed.json(), { action: 'duplicate' });

  const changedAgain = shop.updateProduct(renamed.id, { title: 'Aurora headlamp II' });
  t.like(await (await shop.sendWebhook(webhookUrl, 'products/update', changedAgain)).json(), { action: 'reingest' });
});

test('a product changed more than 48 hours before the delivery is refused as a replay', async (t) => {
  const product = shop.products()[1]!;
  t.true(Date.parse(product.updated_at) < Date.now() - 48 * 3600 * 1000, 'the fake catalogue dates its products in 2025');
  const stale = await shop.sendWebhook(webhookUrl, 'products/update', product);
  t.is(stale.status, 400);
  const body = await stale.json();
  t.is(body.error.code, 'invalid_payload');
  t.regex(body.error.message, /48 hours/);
});
