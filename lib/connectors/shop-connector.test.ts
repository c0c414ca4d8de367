import test from 'ava';
import { ScheduleNotFoundError } from '@temporalio/client';
import { createTemporalClient } from '#platform/temporal.js';
import {
  assertStoppedAtPageCap,
  connectingTenant,
  sourcesOfOrigin,
  untilSynced,
  type ConnectingTenant,
} from '#testing/connectors.js';
import { eventually } from '#testing/eventually.js';
import { startFakeShop, type FakeShop } from '#testing/fake-shop.js';
import { startIngestionStack, untilSearchable, waitForJobs, type IngestionStack } from '#testing/ingestion.js';
import { syncProgressQuery } from '#workflows/connectors/progress.js';
import { connectorScheduleId } from '#workflows/ids.js';
import type { ShopProduct } from './shop/shop-types.js';

/*
 * The shop connector end to end: a local fake of the shop admin API (cursor pages, a leaky-bucket rate
 * limit, signed webhooks), and the real API, worker, Temporal, Weaviate and Redis. The connector is a
 * client of the public ingestion API with a key of its own.
 */

let stack: IngestionStack;
let temporal: ReturnType<typeof createTemporalClient>;
const cleanups: Array<() => Promise<unknown>> = [];
/** Pages one sync may read here: more than every other test needs, few enough for a hostile shop to reach. */
const maxPagesPerRun = 15;
test.before(async () => {
  stack = await startIngestionStack({ CONNECTOR_MAX_PAGES_PER_RUN: String(maxPagesPerRun) });
  temporal = createTemporalClient(stack.api.config.temporal);
});
test.after.always(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  await temporal?.close();
  await stack?.close();
});

async function shopWith(products: number | Array<Partial<ShopProduct>>, options: Parameters<typeof startFakeShop>[0] = {}) {
  const shop = await startFakeShop(options);
  cleanups.push(() => shop.close());
  shop.addProducts(products);
  return shop;
}

/** Connects `shop` for a new tenant; the connector is removed (schedule and all) after the tests. */
async function connect(shop: FakeShop, data: Record<string, unknown> = {}) {
  const tenant = await connectingTenant(stack.api);
  const created = await tenant.asAdmin('POST', '/connectors/shop', {
    name: 'Northwind shop',
    data: {
      adminUrl: shop.url,
      apiVersion: shop.apiVersion,
      accessToken: shop.accessToken,
      webhookSecret: shop.webhookSecret,
      ...data,
    },
  });
  if (created.status !== 201) throw new Error(`connector not created: ${JSON.stringify(created.body)}`);
  cleanups.push(() => tenant.asAdmin('DELETE', `/connectors/${created.body.id}`));
  return { tenant, connector: created.body };
}

/** Where the test API takes the connector's webhooks (its public base URL names no real port). */
const webhookUrlOf = (connector: { webhookUrl: string }) => stack.api.url + new URL(connector.webhookUrl).pathname;

const jobIdOf = (connector: { integrationId: string }, productId: number) => `${connector.integrationId}-${productId}`;

async function search(tenant: ConnectingTenant, q: string) {
  const response = await stack.api.request('GET', `/knowledge-bases/${tenant.kb}/search?q=${encodeURIComponent(q)}&limit=5`, {
    headers: tenant.headers,
  });
  return response.body.results as Array<{ externalId: string; title: string; url: string; sourceType: string; sourceData: any }>;
}

test.serial('a full sync makes every active product searchable, with the fields of the published mapping', async (t) => {
  const shop = await shopWith(12);
  const [draft] = shop.addProducts([{ title: 'Prototype lantern', status: 'draft' }]);
  const [kettle] = shop.addProducts([
    {
      title: 'Basalt camping kettle',
      body_html: '<p>A <strong>1.2 litre</strong> kettle &amp; pour spout.</p>',
      vendor: 'Fjellgear',
      tags: 'camping, cookware',
      handle: 'basalt-camping-kettle',
      variants: [
        { ...variant(1), price: '39.90', sku: 'KET-12-GRY', inventory_quantity: 4, position: 1 },
        { ...variant(2), price: '44.90', sku: 'KET-12-RED', inventory_quantity: 3, position: 2 },
      ],
      images: [
        { id: 2, product_id: 0, src: 'https://cdn.shop.test/kettle-back.jpg', alt: 'Back', position: 2, width: 800, height: 800 },
        { id: 1, product_id: 0, src: 'https://cdn.shop.test/kettle.jpg', alt: 'Kettle', position: 1, width: 800, height: 800 },
      ],
    },
  ]);
  shop.rateLimitNext(1, 1);

  const { tenant, connector } = await connect(shop, { pageSize: 5 });
  t.is(connector.type, 'shop');
  t.regex(connector.webhookUrl, new RegExp(`^${stack.api.config.publicBaseUrl}/webhooks/shop/[A-Za-z0-9_-]{32}$`));
  t.false(JSON.stringify(connector).includes(shop.accessToken));

  const synced = await untilSynced(tenant, connector.id);
  t.like(synced.sync.last, { outcome: 'succeeded', mode: 'full', sent: 13, unchanged: 0, deleted: 0 });
  // The shop's rate limit answered the first call 429; it was waited out. 14 products with the
  // draft, 5 a page: three pages, the later ones by cursor alone.
  t.is(shop.requests[0]!.status, 429);
  const pages = shop.requests.filter((request) => request.path.endsWith('/products.json'));
  t.deepEqual(
    pages.map((request) => request.status),
    [200, 200, 200],
  );
  t.is(pages[0]!.query.status, 'active');
  t.true(pages.slice(1).every((request) => request.query.page_info !== undefined && request.query.status === undefined));

  const active = shop.products().filter((product) => product.status === 'active');
  await untilSearchable(
    stack.api,
    tenant.headers,
    active.map((product) => jobIdOf(connector, product.id)),
  );
  t.is(
    (await stack.api.request('GET', `/ingest/jobs/${jobIdOf(connector, draft!.id)}`, { headers: tenant.headers })).status,
    404,
  );

  const [hit] = await search(tenant, 'Basalt camping kettle pour spout');
  t.like(hit, {
    externalId: String(kettle!.id),
    sourceType: 'PRODUCT',
    url: 'https://northwind.shop.test/products/basalt-camping-kettle',
  });
  t.deepEqual(hit!.sourceData, {
    ...hit!.sourceData,
    title: 'Basalt camping kettle',
    description: 'A 1.2 litre kettle & pour spout.',
    vendor: 'Fjellgear',
    tags: ['camping', 'cookware'],
    price: '39.90',
    currency: 'EUR',
    sku: 'KET-12-GRY',
    inventory: { inStock: true, quantityAvailable: 7 },
    images: [
      { url: 'https://cdn.shop.test/kettle.jpg', alt: 'Kettle' },
      { url: 'https://cdn.shop.test/kettle-back.jpg', alt: 'Back' },
    ],
  });

  // The sync is visible in Temporal as the connector's schedule.
  const schedule = await temporal.client.schedule.getHandle(connectorScheduleId(tenant.tenant.id, connector.id)).describe();
  t.is(schedule.action.workflowType, 'shopSyncWorkflow');
  t.true(schedule.info.recentActions.length >= 1);
});

test.serial('a shop that refuses the token fails the run with the status; its error body is not shown', async (t) => {
  const shop = await shopWith(2);
  const { tenant, connector } = await connect(shop, { accessToken: 'shpat_wrong_token' });
  const failed = await untilSynced(tenant, connector.id);
  t.is(failed.sync.last.outcome, 'failed');
  t.is(
    failed.sync.last.error,
    `GET /admin/api/${shop.apiVersion}/shop.json answered 401 Unauthorized (check the access token and its scopes)`,
  );
  t.false(failed.sync.last.error.includes('Invalid API key'));
  t.false(failed.sync.last.error.includes('shpat_wrong_token'));
});

test.serial('an update webhook re-ingests that product only; a redelivery does nothing again', async (t) => {
  const shop = await shopWith(6);
  const { tenant, connector } = await connect(shop);
  await untilSynced(tenant, connector.id);
  const [first, second] = shop.products();
  const jobIds = shop.products().map((product) => jobIdOf(connector, product.id));
  const before = await waitForJobs(stack.api, tenant.headers, jobIds);

  const renamed = shop.updateProduct(first!.id, {
    title: 'Aurora headlamp',
    body_html: '<p>300 lumen headlamp with a red night mode.</p>',
  });
  const delivered = await shop.sendWebhook(webhookUrlOf(connector), 'products/update', renamed, { webhookId: 'delivery-1' });
  t.is(delivered.status, 200);
  t.like(await delivered.json(), { topic: 'products/update', productId: String(first!.id), action: 'reingest' });

  const [hit] = await eventually(
    () => search(tenant, 'Aurora headlamp red night mode'),
    ([top]) => top?.title === 'Aurora headlamp',
    { timeoutMs: 30_000, intervalMs: 200 },
  );
  t.like(hit, { externalId: String(first!.id), title: 'Aurora headlamp' });
  t.is(hit!.sourceData.description, '300 lumen headlamp with a red night mode.');

  const again = await shop.sendWebhook(webhookUrlOf(connector), 'products/update', renamed, { webhookId: 'delivery-1' });
  t.like(await again.json(), { action: 'duplicate' });

  const after = await waitForJobs(stack.api, tenant.headers, [jobIdOf(connector, second!.id)]);
  t.is(after.get(jobIdOf(connector, second!.id))!.updatedAt, before.get(jobIdOf(connector, second!.id))!.updatedAt);

  // New images alone change the structured data, not the text: updated without a new embedding (metadataOnly).
  const reshot = shop.updateProduct(second!.id, {
    images: [
      { id: 99, product_id: second!.id, src: 'https://cdn.shop.test/new.jpg', alt: 'New', position: 1, width: 10, height: 10 },
    ],
  });
  await shop.sendWebhook(webhookUrlOf(connector), 'products/update', reshot);
  const job = await eventually(
    async () =>
      (await stack.api.request('GET', `/ingest/jobs/${jobIdOf(connector, second!.id)}`, { headers: tenant.headers })).body,
    (body) => body.status === 'metadata_updated',
    { timeoutMs: 30_000, intervalMs: 200 },
  );
  t.is(job.status, 'metadata_updated');
});

test.serial('a webhook taken in while no worker runs is acted on when one comes back', async (t) => {
  const shop = await shopWith(3);
  const { tenant, connector } = await connect(shop);
  await untilSynced(tenant, connector.id);
  const [product] = shop.products();

  await stack.stopWorker();
  try {
    const renamed = shop.updateProduct(product!.id, {
      title: 'Glacier sleeping bag',
      body_html: '<p>Comfort to minus 12 degrees.</p>',
    });
    const delivered = await shop.sendWebhook(webhookUrlOf(connector), 'products/update', renamed);
    t.is(delivered.status, 200);
    t.like(await delivered.json(), { action: 'reingest' });
  } finally {
    await stack.startWorker();
  }
  const [hit] = await eventually(
    () => search(tenant, 'Glacier sleeping bag minus 12 degrees'),
    ([top]) => top?.title === 'Glacier sleeping bag',
    { timeoutMs: 30_000, intervalMs: 200 },
  );
  t.like(hit, { externalId: String(product!.id), title: 'Glacier sleeping bag' });
});

test.serial('a deleted product disappears after the next sync', async (t) => {
  const shop = await shopWith(5);
  const { tenant, connector } = await connect(shop);
  const firstSync = await untilSynced(tenant, connector.id);
  // Cleanup judges what is ingested: the next sync starts once the first one's products are.
  await waitForJobs(
    stack.api,
    tenant.headers,
    shop.products().map((product) => jobIdOf(connector, product.id)),
  );
  const [gone] = shop.products();
  shop.deleteProduct(gone!.id);

  const triggered = await tenant.asAdmin('POST', `/connectors/${connector.id}/sync`, {});
  t.is(triggered.status, 202);
  const secondSync = await untilSynced(tenant, connector.id, firstSync.sync.last.runId);
  // The four left are unchanged since the first sync: listed and kept, not sent again.
  t.like(secondSync.sync.last, { outcome: 'succeeded', sent: 0, unchanged: 4, deleted: 1 });

  const job = await waitForJobs(stack.api, tenant.headers, [jobIdOf(connector, gone!.id)]);
  t.is(job.get(jobIdOf(connector, gone!.id))!.status, 'deleted');
  t.deepEqual(
    (await sourcesOfOrigin(stack.api, tenant.tenant.id, tenant.kb, connector.integrationId)).sort(),
    shop
      .products()
      .map((product) => String(product.id))
      .sort(),
  );
});

test.serial('a forged or altered webhook is refused and changes nothing', async (t) => {
  const shop = await shopWith(2);
  const { tenant, connector } = await connect(shop);
  await untilSynced(tenant, connector.id);
  const [product] = shop.products();
  const forged = { ...product!, title: 'Free gift card' };

  const wrongSecret = await shop.sendWebhook(webhookUrlOf(connector), 'products/update', forged, { secret: 'not-the-secret' });
  t.is(wrongSecret.status, 401);
  t.is(((await wrongSecret.json()) as any).error.code, 'unauthorized');
  const altered = await shop.sendWebhook(webhookUrlOf(connector), 'products/update', forged, { tamper: true });
  t.is(altered.status, 401);
  const unsigned = await fetch(webhookUrlOf(connector), {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-shop-topic': 'products/update' },
    body: JSON.stringify(forged),
  });
  t.is(unsigned.status, 401);
  const unknownPath = await shop.sendWebhook(`${stack.api.url}/webhooks/shop/${'A'.repeat(32)}`, 'products/update', forged);
  t.is(unknownPath.status, 404);

  const signedWithoutId = await shop.sendWebhook(webhookUrlOf(connector), 'products/update', { id: 0 } as never);
  t.is(signedWithoutId.status, 400);
  t.is(shop.requests.filter((request) => request.path.includes(`/products/${product!.id}.json`)).length, 0);
});

test.serial('a sync interrupted by a worker restart resumes at its page and ends without duplicates', async (t) => {
  const shop = await shopWith(240);
  shop.setPageDelay(300);
  const { tenant, connector } = await connect(shop, { pageSize: 20 });
  const pageRequests = () => shop.requests.filter((request) => request.path.endsWith('/products.json') && request.status === 200);

  await eventually(
    async () => pageRequests().length,
    (count) => count >= 4,
    { timeoutMs: 60_000, intervalMs: 50 },
  );
  // The sync in flight is the schedule's latest action; asked where it is, it answers with its position.
  const schedule = await temporal.client.schedule.getHandle(connectorScheduleId(tenant.tenant.id, connector.id)).describe();
  const latest = schedule.info.recentActions.at(-1)!.action;
  const progress = await temporal.client.workflow.getHandle(latest.workflow.workflowId).query(syncProgressQuery);
  t.true(progress.pages >= 1 && progress.position !== '', JSON.stringify(progress));

  await stack.stopWorker();
  const beforeRestart = pageRequests().length;
  t.true(beforeRestart < 12, `the sync was still under way (${beforeRestart} of 12 pages)`);
  await stack.startWorker();

  const synced = await untilSynced(tenant, connector.id);
  t.is(synced.sync.last.outcome, 'succeeded');
  const cursors = pageRequests().map((request) => request.query.page_info ?? 'first');
  // Resumed, not restarted: the first page was read once; at most the page in flight was read again.
  t.is(cursors.filter((cursor) => cursor === 'first').length, 1);
  t.true(cursors.length <= 13, `${cursors.length} page reads for 12 pages`);
  t.is(new Set(cursors).size, 12);

  // 240 items embedded by the local model: minutes on a loaded machine, hence the wait.
  await untilSearchable(
    stack.api,
    tenant.headers,
    shop.products().map((product) => jobIdOf(connector, product.id)),
    300_000,
  );
  const sources = await sourcesOfOrigin(stack.api, tenant.tenant.id, tenant.kb, connector.integrationId);
  t.is(sources.length, 240);
  t.is(new Set(sources).size, 240);
});

test.serial('removing a connector stops its schedule, revokes its key and closes its webhook address', async (t) => {
  const shop = await shopWith(1);
  const { tenant, connector } = await connect(shop);
  await untilSynced(tenant, connector.id);

  t.is((await tenant.asAdmin('DELETE', `/connectors/${connector.id}`)).status, 204);
  t.is((await tenant.asAdmin('GET', `/connectors/${connector.id}`)).status, 404);
  const error = await t.throwsAsync(
    temporal.client.schedule.getHandle(connectorScheduleId(tenant.tenant.id, connector.id)).describe(),
  );
  t.true(error instanceof ScheduleNotFoundError);
  const keys = await stack.api.tenancy.listApiKeys(tenant.tenant.id);
  t.false(keys.find((key) => key.name.startsWith('shop connector'))!.active);
  t.is((await shop.sendWebhook(webhookUrlOf(connector), 'products/update', shop.products()[0]!)).status, 404);
  // What it sent stays, and is ingested: the sync's run ends once the API accepted its items, which
  // may still be queued under load.
  const jobs = await waitForJobs(stack.api, tenant.headers, [jobIdOf(connector, shop.products()[0]!.id)]);
  t.deepEqual(
    [...jobs.values()].map((job) => job.status),
    ['searchable'],
  );
  t.is((await sourcesOfOrigin(stack.api, tenant.tenant.id, tenant.kb, connector.integrationId)).length, 1);
});

function variant(id: number) {
  return {
    id,
    product_id: 0,
    title: 'Default Title',
    price: '1.00',
    compare_at_price: null,
    sku: null,
    position: 1,
    inventory_quantity: 0,
    inventory_management: 'shop',
    inventory_policy: 'deny' as const,
    option1: 'Default Title',
    option2: null,
    option3: null,
  };
}

test.serial('a shop whose next link never ends fails the run at the page cap, with the reason on the connector', async (t) => {
  const shop = await shopWith(4);
  shop.endlessPages();
  const { tenant, connector } = await connect(shop, { pageSize: 2 });
  const failed = await untilSynced(tenant, connector.id);
  assertStoppedAtPageCap(t, failed, maxPagesPerRun);
  const pages = shop.requests.filter((request) => request.path.endsWith('/products.json') && request.status === 200);
  t.is(pages.length, maxPagesPerRun);
});
