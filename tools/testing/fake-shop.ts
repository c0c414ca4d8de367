/**
 * A stand-in for a shop admin REST API (Shopify-like) on 127.0.0.1, for tests that need real HTTP both ways.
 *
 * API side: `GET /admin/api/{version}/shop.json`, `products.json` (cursor pages with a `Link` header),
 * `products/{id}.json` and `products/count.json`, behind the `X-Shop-Access-Token` check and a leaky-bucket
 * rate limit, answered with the real API's status codes and error bodies. Failures a test needs (429 with
 * `Retry-After`, 5xx) are scripted with `rateLimitNext` and `failNext` and come before everything but routing.
 *
 * Webhook side: `sendWebhook` POSTs a product to our receiver the way shop platforms do: the raw JSON bytes
 * signed with the shop's webhook secret in `X-Shop-Hmac-Sha256`, plus the topic, domain and delivery id.
 *
 * The generated products come from `fake-shop-catalogue.ts`.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import type { ShopProduct } from '#connectors/shop/shop-types.js';
import { signShopWebhook } from '#connectors/shop/webhook-signature.js';
import { firstProductIds, generateProduct, shopTime } from './fake-shop-catalogue.js';
import { startAnsweringFake, type FakeAnswer as Answer } from './http-fake.js';

export interface FakeShopOptions {
  /** default 250; a larger `limit` is answered 400 like the real API */
  maxPageSize?: number;
  /**
   * default {size: 40, leakPerSecond: 2}: each API call fills the bucket by one and it drains at
   * `leakPerSecond`; a call that would overflow it is answered 429. `false` turns the limit off.
   */
  bucket?: { size: number; leakPerSecond: number } | false;
  /** default 'EUR' */
  currency?: string;
  /** default 'northwind.shop.test' */
  domain?: string;
}

export type WebhookTopic = 'products/create' | 'products/update' | 'products/delete';

export interface FakeShop {
  url: string;
  accessToken: string;
  /** '2025-01' */
  apiVersion: string;
  domain: string;
  /** `https://${domain}` */
  storefrontUrl: string;
  webhookSecret: string;
  /** every request answered, in order */
  requests: Array<{ method: string; path: string; query: Record<string, string>; status: number }>;
  /**
   * n generated products (deterministic and varied; all active, so a test decides where drafts are) or the
   * given partial ones completed from the generator; ids increase
   */
  addProducts(products: number | Array<Partial<ShopProduct>>): ShopProduct[];
  /** copies of the current products, by id */
  products(): ShopProduct[];
  /** bumps updated_at */
  updateProduct(id: number, changes: Partial<ShopProduct>): ShopProduct;
  deleteProduct(id: number): void;
  /** the next `count` API requests answer 429 with `Retry-After` (default 2 seconds, sent as "2.0") */
  rateLimitNext(count: number, retryAfterSeconds?: number): void;
  failNext(count: number, status: 500 | 502 | 503): void;
  /** Hostile: every products page carries a `rel="next"` link to a page after it, without end. */
  endlessPages(): void;
  /** every products page answer waits this long first (to interrupt a sync mid-way in tests) */
  setPageDelay(ms: number): void;
  /**
   * POSTs a webhook to `target` the way shop platforms do (a delete carries only `{"id"}`); signed with
   * `webhookSecret` unless `secret` is given; `tamper` alters one digit of the body after signing
   */
  sendWebhook(
    target: string,
    topic: WebhookTopic,
    product: ShopProduct | { id: number },
    options?: { secret?: string; webhookId?: string; tamper?: boolean },
  ): Promise<Response>;
  close(): Promise<void>;
}

export const fakeShopApiVersion = '2025-01';

/** The real API's words for the errors the fake answers with. */
export const shopErrorMessages = {
  unauthorized: '[API] Invalid API key or access token (unrecognized login or wrong password)',
  notFound: 'Not Found',
  rateLimited: 'Exceeded 2 calls per second for api client. Reduce request rates to resume uninterrupted service.',
  pageInfoWithFilter: 'page_info cannot be combined with other filters',
} as const;

type Status = ShopProduct['status'];
const STATUSES: ReadonlySet<string> = new Set(['active', 'draft', 'archived', 'any']);
/** Parameters a `page_info` request may carry; any other is a filter, which the cursor already fixes. */
const PAGE_PARAMS: ReadonlySet<string> = new Set(['page_info', 'limit', 'fields']);

interface Filter {
  status: Status | 'any';
  vendor?: string;
  sinceId?: number;
}

/** What a page_info token carries: where the page starts and the filter of the first page. */
interface Cursor {
  direction: 'next' | 'previous';
  id: number;
  filter: Filter;
}

export async function startFakeShop(options: FakeShopOptions = {}): Promise<FakeShop> {
  const maxPageSize = options.maxPageSize ?? 250;
  const domain = options.domain ?? 'northwind.shop.test';
  const currency = options.currency ?? 'EUR';
  const apiVersion = fakeShopApiVersion;
  const accessToken = `shpat_${randomBytes(16).toString('hex')}`;
  const webhookSecret = randomBytes(24).toString('hex');
  const bucket = options.bucket === false ? undefined : leakyBucket(options.bucket ?? { size: 40, leakPerSecond: 2 });
  const requests: FakeShop['requests'] = [];
  const catalogue = new Map<number, ShopProduct>();
  const ids = firstProductIds();
  const script: Array<{ status: number; retryAfterSeconds?: number }> = [];
  let generated = 0;
  let pageDelayMs = 0;
  let endless = false;
  let url = '';

  const sorted = () => [...catalogue.values()].sort((a, b) => a.id - b.id);
  const errors = (status: number, errors: unknown): Answer => ({ status, body: { errors } });
  const notFound = () => errors(404, shopErrorMessages.notFound);
  const rateLimited = (seconds: number): Answer => ({
    ...errors(429, shopErrorMessages.rateLimited),
    headers: { 'retry-after': seconds.toFixed(1) },
  });

  async function answer(request: IncomingMessage, target: URL): Promise<Answer> {
    const route = /^\/admin\/api\/([^/]+)\/(.+)$/.exec(target.pathname);
    if (!route || request.method !== 'GET') return notFound();
    const scripted = script.shift();
    if (scripted)
      return scripted.retryAfterSeconds === undefined ? serverError(scripted.status) : rateLimited(scripted.retryAfterSeconds);
    if (request.headers['x-shop-access-token'] !== accessToken) return errors(401, shopErrorMessages.unauthorized);
    if (route[1] !== apiVersion) return notFound();
    if (bucket && !bucket.take()) return rateLimited(2);

    const query = Object.fromEntries(target.searchParams);
    const path = route[2] ?? '';
    if (path === 'shop.json') {
      const name = domain.split('.')[0] ?? domain;
      const shop = {
        id: 60_000_001,
        name: name.charAt(0).toUpperCase() + name.slice(1),
        domain,
        currency,
        iana_timezone: 'Europe/Berlin',
      };
      return { status: 200, body: { shop } };
    }
    if (path === 'products.json') {
      if (pageDelayMs > 0) await delay(pageDelayMs, undefined, { ref: false });
      return productsPage(query);
    }
    if (path === 'products/count.json') {
      const filter = readFilter(query);
      if ('errors' in filter) return errors(400, filter.errors);
      return { status: 200, body: { count: sorted().filter((product) => matches(product, filter)).length } };
    }
    const single = /^products\/(\d+)\.json$/.exec(path);
    const product = single ? catalogue.get(Number(single[1])) : undefined;
    return product ? { status: 200, body: { product: pick(product, query.fields) } } : notFound();
  }

  function productsPage(query: Record<string, string>): Answer {
    const limitText = query.limit ?? '50';
    const limit = Number(limitText);
    if (!/^\d+$/.test(limitText) || limit < 1) return errors(400, { limit: ['must be greater than or equal to 1'] });
    if (limit > maxPageSize) return errors(400, { limit: [`must be less than or equal to ${maxPageSize}`] });

    let cursor: Cursor | undefined;
    if (query.page_info !== undefined) {
      if (Object.keys(query).some((key) => !PAGE_PARAMS.has(key))) {
        return errors(400, { page_info: [shopErrorMessages.pageInfoWithFilter] });
      }
      cursor = decodeCursor(query.page_info);
      if (!cursor) return errors(400, { page_info: ['Invalid value.'] });
    }
    const filter = cursor?.filter ?? readFilter(query);
    if ('errors' in filter) return errors(400, filter.errors);

    const matching = sorted().filter((product) => matches(product, filter));
    const page = !cursor
      ? matching.slice(0, limit)
      : cursor.direction === 'next'
        ? matching.filter((product) => product.id > cursor.id).slice(0, limit)
        : matching.filter((product) => product.id < cursor.id).slice(-limit);

    const first = page[0];
    const last = page.at(-1);
    const fields = query.fields === undefined ? '' : `&fields=${encodeURIComponent(query.fields)}`;
    const link = (rel: 'previous' | 'next', id: number) =>
      `<${url}/admin/api/${apiVersion}/products.json?limit=${limit}${fields}&page_info=${encodeCursor({ direction: rel, id, filter })}>; rel="${rel}"`;
    const links = [
      first && matching.some((product) => product.id < first.id) ? link('previous', first.id) : undefined,
      last && matching.some((product) => product.id > last.id)
        ? link('next', last.id)
        : endless
          ? link('next', Math.max(last?.id ?? 0, cursor?.id ?? 0) + 1)
          : undefined,
    ].filter((value): value is string => value !== undefined);
    return {
      status: 200,
      body: { products: page.map((product) => pick(product, query.fields)) },
      headers: links.length > 0 ? { link: links.join(', ') } : {},
    };
  }

  /** Every answer, errors included, says how full the bucket is, as the real API's do. */
  const withCallLimit = (answer: Answer): Answer =>
    bucket ? { ...answer, headers: { 'x-shop-api-call-limit': bucket.header(), ...answer.headers } } : answer;

  const server = await startAnsweringFake({
    answer: async (request, target) => withCallLimit(await answer(request, target)),
    failed: () => withCallLimit(serverError(500)),
    answered(request, target, { status }) {
      requests.push({
        method: request.method ?? '',
        path: target.pathname,
        query: Object.fromEntries(target.searchParams),
        status,
      });
    },
    contentType: { json: 'application/json; charset=utf-8', html: 'text/html; charset=utf-8' },
  });
  url = server.url;

  function existing(id: number): ShopProduct {
    const product = catalogue.get(id);
    if (!product) throw new Error(`The fake shop has no product ${id}`);
    return product;
  }

  return {
    url,
    accessToken,
    apiVersion,
    domain,
    storefrontUrl: `https://${domain}`,
    webhookSecret,
    requests,
    addProducts(products) {
      const partials = typeof products === 'number' ? Array.from({ length: products }, () => ({})) : products;
      return partials.map((partial) => {
        const product = generateProduct(generated++, ids, partial);
        catalogue.set(product.id, product);
        return structuredClone(product);
      });
    },
    products: () => sorted().map((product) => structuredClone(product)),
    updateProduct(id, changes) {
      const before = existing(id);
      const updatedAt = Math.max(Date.now(), Date.parse(before.updated_at) + 1000);
      const product = { ...before, ...structuredClone(changes), id, updated_at: shopTime(updatedAt) };
      catalogue.set(id, product);
      return structuredClone(product);
    },
    deleteProduct(id) {
      existing(id);
      catalogue.delete(id);
    },
    rateLimitNext(count, retryAfterSeconds = 2) {
      for (let i = 0; i < count; i++) script.push({ status: 429, retryAfterSeconds });
    },
    failNext(count, status) {
      for (let i = 0; i < count; i++) script.push({ status });
    },
    endlessPages() {
      endless = true;
    },
    setPageDelay(ms) {
      pageDelayMs = ms;
    },
    async sendWebhook(target, topic, product, webhookOptions = {}) {
      const payload = topic === 'products/delete' ? { id: product.id } : product;
      const body = Buffer.from(JSON.stringify(payload));
      const signature = signShopWebhook(body, webhookOptions.secret ?? webhookSecret);
      if (webhookOptions.tamper) tamper(body);
      return fetch(target, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-shop-topic': topic,
          'x-shop-hmac-sha256': signature,
          'x-shop-domain': domain,
          'x-shop-webhook-id': webhookOptions.webhookId ?? randomUUID(),
          'x-shop-api-version': apiVersion,
          'x-shop-triggered-at': new Date().toISOString(),
        },
        body,
      });
    },
    close: server.close,
  };
}

/** The 5xx bodies seen in the wild: JSON from the API itself, an HTML page from the gateway in front of it. */
function serverError(status: number): Answer {
  if (status === 502) return { status, body: '<html><body><h1>502 Bad Gateway</h1></body></html>' };
  return { status, body: { errors: status === 503 ? 'Service Unavailable' : 'Internal Server Error' } };
}

function readFilter(query: Record<string, string>): Filter | { errors: Record<string, string[]> } {
  const status = query.status ?? 'any';
  if (!STATUSES.has(status)) return { errors: { status: ['is not included in the list'] } };
  const sinceId = query.since_id === undefined ? undefined : Number(query.since_id);
  if (sinceId !== undefined && !Number.isInteger(sinceId)) return { errors: { since_id: ['must be an integer'] } };
  return {
    status: status as Filter['status'],
    ...(query.vendor === undefined ? {} : { vendor: query.vendor }),
    ...(sinceId === undefined ? {} : { sinceId }),
  };
}

function matches(product: ShopProduct, filter: Filter): boolean {
  return (
    (filter.status === 'any' || product.status === filter.status) &&
    (filter.vendor === undefined || product.vendor === filter.vendor) &&
    (filter.sinceId === undefined || product.id > filter.sinceId)
  );
}

/** `fields=id,title` narrows each product to those keys, as the real API does. */
function pick(product: ShopProduct, fields: string | undefined): Partial<ShopProduct> {
  if (!fields) return product;
  const wanted = new Set(fields.split(',').map((field) => field.trim()));
  return Object.fromEntries(Object.entries(product).filter(([key]) => wanted.has(key))) as Partial<ShopProduct>;
}

function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

function decodeCursor(token: string): Cursor | undefined {
  try {
    const cursor = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as Cursor;
    const valid =
      (cursor.direction === 'next' || cursor.direction === 'previous') &&
      Number.isInteger(cursor.id) &&
      typeof cursor.filter === 'object' &&
      STATUSES.has(cursor.filter?.status);
    return valid ? cursor : undefined;
  } catch {
    return undefined;
  }
}

function leakyBucket({ size, leakPerSecond }: { size: number; leakPerSecond: number }) {
  let level = 0;
  let drainedAt = Date.now();
  const drain = () => {
    const now = Date.now();
    level = Math.max(0, level - ((now - drainedAt) / 1000) * leakPerSecond);
    drainedAt = now;
  };
  return {
    /** Fills the bucket by one call, or says no when that would overflow it. */
    take(): boolean {
      drain();
      if (level + 1 > size) return false;
      level += 1;
      return true;
    },
    header(): string {
      drain();
      return `${Math.ceil(level)}/${size}`;
    },
  };
}

/** Changes the first digit of the body (an id, usually), so the JSON stays valid but the bytes differ. */
function tamper(body: Buffer): void {
  const index = body.findIndex((byte) => byte >= 0x30 && byte <= 0x39);
  if (index === -1) body[body.length - 1] = (body[body.length - 1] ?? 0) ^ 1;
  else body[index] = 0x30 + (((body[index] ?? 0x30) - 0x30 + 1) % 10);
}
