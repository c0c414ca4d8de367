import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import test, { type ExecutionContext } from 'ava';
import { verifyShopWebhook } from '#connectors/shop/webhook-signature.js';
import { eventually } from './eventually.js';
import { shopErrorMessages, startFakeShop, type FakeShop, type FakeShopOptions } from './fake-shop.js';

async function start(t: ExecutionContext, options: FakeShopOptions = {}) {
  const shop = await startFakeShop(options);
  t.teardown(() => shop.close());
  return shop;
}

async function get(shop: FakeShop, path: string, token: string | null = shop.accessToken) {
  const url = path.startsWith('http') ? path : `${shop.url}/admin/api/${shop.apiVersion}/${path}`;
  const response = await fetch(url, { headers: token === null ? {} : { 'x-shop-access-token': token } });
  const text = await response.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {}
  return { status: response.status, headers: response.headers, body };
}

/** The URLs of a Link header by rel. */
function links(header: string | null): Record<string, string> {
  return Object.fromEntries([...(header ?? '').matchAll(/<([^>]+)>; rel="(\w+)"/g)].map(([, url, rel]) => [rel!, url!]));
}

test('a missing or wrong access token is 401 with the real error body', async (t) => {
  const shop = await start(t);
  for (const token of [null, 'shpat_wrong']) {
    const answer = await get(shop, 'shop.json', token);
    t.is(answer.status, 401);
    t.deepEqual(answer.body, { errors: shopErrorMessages.unauthorized });
  }
  t.is((await get(shop, 'shop.json')).status, 200);
});

test('an unknown API version, an unknown route and an unknown product are 404', async (t) => {
  const shop = await start(t);
  const [product] = shop.addProducts(1);
  t.is((await get(shop, `${shop.url}/admin/api/2023-04/shop.json`)).status, 404);
  t.is((await get(shop, 'orders.json')).status, 404);
  t.deepEqual((await get(shop, 'products/123.json')).body, { errors: 'Not Found' });
  t.is((await get(shop, `products/${product!.id}.json`)).body.product.id, product!.id);
});

test('generated products are varied, and ids increase across calls', async (t) => {
  const shop = await start(t);
  const products = [...shop.addProducts(12), ...shop.addProducts([{ title: 'Blue Mug', status: 'draft' }])];
  const ids = products.map(({ id }) => id);
  t.deepEqual(
    ids,
    [...ids].sort((a, b) => a - b),
  );
  t.is(new Set(ids).size, ids.length);
  t.deepEqual(new Set(products.slice(0, 12).map(({ variants }) => variants.length)), new Set([1, 2, 3]));
  t.true(new Set(products.map(({ vendor }) => vendor)).size > 2);
  t.true(products.some(({ variants }) => variants.some((variant) => variant.inventory_management === null)));
  t.true(products.some(({ images }) => images.length === 0) && products.some(({ images }) => images.length === 3));
  t.true(products.some(({ body_html }) => body_html?.includes('<')));
  t.like(products.at(-1), { title: 'Blue Mug', handle: 'blue-mug', status: 'draft', published_at: null });
  t.true(products.at(-1)!.variants.every((variant) => variant.product_id === products.at(-1)!.id));
  t.deepEqual(shop.products(), products);
});

test('pages follow the Link header both ways, keep the first page filter, and refuse page_info with a filter', async (t) => {
  const shop = await start(t);
  const products = shop.addProducts(5);
  shop.updateProduct(products[2]!.id, { status: 'archived' });
  const active = products.filter((_, index) => index !== 2).map(({ id }) => id);

  const first = await get(shop, 'products.json?limit=2&status=active');
  t.deepEqual(
    first.body.products.map((product: { id: number }) => product.id),
    active.slice(0, 2),
  );
  t.deepEqual(Object.keys(links(first.headers.get('link'))), ['next']);

  const second = await get(shop, links(first.headers.get('link')).next!);
  t.deepEqual(
    second.body.products.map((product: { id: number }) => product.id),
    active.slice(2, 4),
  );
  const secondLinks = links(second.headers.get('link'));
  t.deepEqual(Object.keys(secondLinks), ['previous']);
  t.regex(secondLinks.previous!, new RegExp(`^${shop.url}/admin/api/2025-01/products\\.json\\?limit=2&page_info=[\\w-]+$`));

  const back = await get(shop, secondLinks.previous!);
  t.deepEqual(
    back.body.products.map((product: { id: number }) => product.id),
    active.slice(0, 2),
  );

  const pageInfo = new URL(secondLinks.previous!).searchParams.get('page_info');
  const mixed = await get(shop, `products.json?page_info=${pageInfo}&status=active`);
  t.is(mixed.status, 400);
  t.deepEqual(mixed.body, { errors: { page_info: ['page_info cannot be combined with other filters'] } });
  t.is((await get(shop, `products.json?page_info=${pageInfo}&limit=1&fields=id`)).status, 200);
  t.is((await get(shop, 'products.json?page_info=garbage')).status, 400);
});

test('limit defaults to 50 and may not exceed the maximum page size', async (t) => {
  const shop = await start(t, { maxPageSize: 60, bucket: false });
  shop.addProducts(55);
  t.is((await get(shop, 'products.json')).body.products.length, 50);
  t.is((await get(shop, 'products.json?limit=60')).body.products.length, 55);
  const tooMany = await get(shop, 'products.json?limit=61');
  t.is(tooMany.status, 400);
  t.deepEqual(tooMany.body, { errors: { limit: ['must be less than or equal to 60'] } });
  t.deepEqual((await get(shop, 'products/count.json?status=active')).body, { count: 55 });
});

test('the leaky bucket answers 429 with Retry-After once full, and reports its level', async (t) => {
  const shop = await start(t, { bucket: { size: 3, leakPerSecond: 0.01 } });
  const answers = [];
  for (let i = 0; i < 4; i++) answers.push(await get(shop, 'shop.json'));

  t.deepEqual(
    answers.map(({ status }) => status),
    [200, 200, 200, 429],
  );
  t.deepEqual(
    answers.map(({ headers }) => headers.get('x-shop-api-call-limit')),
    ['1/3', '2/3', '3/3', '3/3'],
  );
  t.is(answers[3]!.headers.get('retry-after'), '2.0');
  t.deepEqual(answers[3]!.body, { errors: shopErrorMessages.rateLimited });
});

test('the bucket drains over time', async (t) => {
  const shop = await start(t, { bucket: { size: 1, leakPerSecond: 20 } });
  t.is((await get(shop, 'shop.json')).status, 200);
  const later = await eventually(
    async () => (await get(shop, 'shop.json')).status,
    (status) => status === 200,
  );
  t.is(later, 200);
});

test('scripted 429 and 5xx come first, in order, and every request is recorded', async (t) => {
  const shop = await start(t);
  shop.rateLimitNext(1, 1.5);
  shop.failNext(1, 502);
  shop.failNext(1, 503);

  const limited = await get(shop, 'shop.json', 'wrong-token');
  t.is(limited.status, 429);
  t.is(limited.headers.get('retry-after'), '1.5');
  const gateway = await get(shop, 'shop.json');
  t.is(gateway.status, 502);
  t.regex(gateway.headers.get('content-type') ?? '', /text\/html/);
  t.is((await get(shop, 'shop.json')).status, 503);
  t.is((await get(shop, 'products.json?limit=1')).status, 200);
  t.deepEqual(shop.requests, [
    { method: 'GET', path: '/admin/api/2025-01/shop.json', query: {}, status: 429 },
    { method: 'GET', path: '/admin/api/2025-01/shop.json', query: {}, status: 502 },
    { method: 'GET', path: '/admin/api/2025-01/shop.json', query: {}, status: 503 },
    { method: 'GET', path: '/admin/api/2025-01/products.json', query: { limit: '1' }, status: 200 },
  ]);
});

test('updateProduct bumps updated_at, deleteProduct removes the product', async (t) => {
  const shop = await start(t);
  const [product] = shop.addProducts(1);
  const updated = shop.updateProduct(product!.id, { title: 'Renamed' });
  t.is(updated.title, 'Renamed');
  t.true(Date.parse(updated.updated_at) > Date.parse(product!.updated_at));
  t.is((await get(shop, `products/${product!.id}.json`)).body.product.title, 'Renamed');
  shop.deleteProduct(product!.id);
  t.is((await get(shop, `products/${product!.id}.json`)).status, 404);
  t.throws(() => shop.deleteProduct(product!.id));
});

test('a page delay holds products pages back', async (t) => {
  const shop = await start(t);
  shop.setPageDelay(150);
  const started = Date.now();
  await get(shop, 'products.json');
  t.true(Date.now() - started >= 140);
});

test('webhooks carry the platform headers and a signature verifyShopWebhook accepts', async (t) => {
  const shop = await start(t);
  const [product] = shop.addProducts(1);
  const received: Array<{ headers: IncomingHttpHeaders; body: Buffer }> = [];
  const receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks) });
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => receiver.close(() => resolve())));
  const target = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks/shop`;

  t.is((await shop.sendWebhook(target, 'products/update', product!, { webhookId: 'delivery-1' })).status, 200);
  await shop.sendWebhook(target, 'products/delete', product!);
  await shop.sendWebhook(target, 'products/update', product!, { tamper: true });
  await shop.sendWebhook(target, 'products/update', product!, { secret: 'someone-else' });

  const [update, deletion, tampered, foreign] = received;
  t.like(update!.headers, {
    'content-type': 'application/json',
    'x-shop-topic': 'products/update',
    'x-shop-domain': 'northwind.shop.test',
    'x-shop-webhook-id': 'delivery-1',
    'x-shop-api-version': '2025-01',
  });
  t.false(Number.isNaN(Date.parse(String(update!.headers['x-shop-triggered-at']))));
  t.deepEqual(JSON.parse(update!.body.toString()), product);
  t.true(verifyShopWebhook(update!.body, shop.webhookSecret, update!.headers['x-shop-hmac-sha256'] as string));

  t.deepEqual(JSON.parse(deletion!.body.toString()), { id: product!.id });
  t.true(verifyShopWebhook(deletion!.body, shop.webhookSecret, deletion!.headers['x-shop-hmac-sha256'] as string));
  t.not(deletion!.headers['x-shop-webhook-id'], update!.headers['x-shop-webhook-id']);

  t.false(verifyShopWebhook(tampered!.body, shop.webhookSecret, tampered!.headers['x-shop-hmac-sha256'] as string));
  t.notThrows(() => JSON.parse(tampered!.body.toString()), 'a tampered body is still JSON');
  t.false(verifyShopWebhook(foreign!.body, shop.webhookSecret, foreign!.headers['x-shop-hmac-sha256'] as string));
});
