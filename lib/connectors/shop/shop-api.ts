/**
 * A client of the shop admin REST API (Shopify-like): the shop, products by cursor page, one product.
 *
 * Shop APIs meter each app with a leaky bucket and answer 429 with a `Retry-After` in float seconds ("2.0")
 * once it is full; a sync that walks a whole catalogue hits that routinely, so 429 is waited out rather than
 * reported. 500/502/503/504 and answers that never arrived back off the same way. Everything else is the
 * caller's problem and is thrown as a `ShopApiError` whose `code` says what kind, so a workflow can decide
 * between "retry later" and "tell the merchant" without parsing text.
 */
import { OutboundError, type OutboundErrorCode } from '#platform/outbound/outbound-http.js';
import { getPatiently, notNowStatuses, type Answer, type Patience } from '../retrying-get.js';
import type { ShopInfo, ShopProduct } from './shop-types.js';

export interface ShopApiOptions extends Patience {
  /** Admin API root, e.g. http://127.0.0.1:4321 or https://northwind.myshop.example; trailing slash ignored */
  baseUrl: string;
  /** sent as `X-Shop-Access-Token` */
  accessToken: string;
  /** e.g. '2025-01'; paths are /admin/api/{apiVersion}/... */
  apiVersion: string;
}

export interface ProductsPage {
  products: ShopProduct[];
  /** opaque page_info of the next page; undefined on the last */
  nextCursor: string | undefined;
}

export interface ShopApi {
  /** GET /admin/api/{v}/shop.json */
  shop(): Promise<ShopInfo>;
  /** The first page holds active products only; later pages keep the filter the cursor carries. */
  productsPage(options: { cursor?: string; limit: number }): Promise<ProductsPage>;
  /** undefined when the shop has no product of this id (deleted since, say) */
  product(productId: string): Promise<ShopProduct | undefined>;
}

export type ShopApiErrorCode =
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'rate_limited'
  | 'server_error'
  | 'unreachable'
  | 'invalid_response'
  | 'bad_request'
  /** The request was refused before or while it was made (see `OutboundError`). */
  | Exclude<OutboundErrorCode, 'unreachable' | 'timeout'>;

/** A failure of one API call; `retryable` is true only when waiting longer could help. */
export class ShopApiError extends Error {
  override readonly name = 'ShopApiError';
  readonly status: number | undefined;
  readonly code: ShopApiErrorCode;
  readonly retryable: boolean;

  constructor(init: {
    status: number | undefined;
    code: ShopApiErrorCode;
    message: string;
    retryable: boolean;
    cause?: unknown;
  }) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.code = init.code;
    this.retryable = init.retryable;
  }
}

export function createShopApi(options: ShopApiOptions): ShopApi {
  const root = `${options.baseUrl.replace(/\/+$/, '')}/admin/api/${encodeURIComponent(options.apiVersion)}`;
  // The token never reaches a message through our own text, and this also scrubs it from anything the
  // shop or the network layer might echo back.
  const fail = (init: ConstructorParameters<typeof ShopApiError>[0]) =>
    new ShopApiError({
      ...init,
      message: options.accessToken ? init.message.replaceAll(options.accessToken, '[redacted]') : init.message,
    });

  async function get(path: string, query: Record<string, string> = {}): Promise<Answer> {
    const search = new URLSearchParams(query).toString();
    const url = `${root}${path}${search ? `?${search}` : ''}`;
    const label = `GET /admin/api/${options.apiVersion}${path}`;
    const last = await getPatiently(url, { 'x-shop-access-token': options.accessToken, accept: 'application/json' }, options);
    if (!last.answer) {
      const { error } = last;
      if (error instanceof OutboundError && !error.retryable && error.code !== 'unreachable' && error.code !== 'timeout') {
        throw fail({ status: undefined, code: error.code, retryable: false, message: `${label}: ${error.message}` });
      }
      // No cause: the network layer's error names the address it tried, which the tenant must not see.
      const reason = error instanceof OutboundError ? error.message : 'could not connect to the shop';
      throw fail({
        status: undefined,
        code: 'unreachable',
        retryable: true,
        message: `${label} got no answer after ${last.retries + 1} attempts: ${reason}`,
      });
    }
    const { answer } = last;
    if (notNowStatuses.has(answer.status)) {
      throw fail({
        status: answer.status,
        code: answer.status === 429 ? 'rate_limited' : 'server_error',
        retryable: true,
        message: `${label} still answered ${answered(answer)} after ${last.retries} retries`,
      });
    }
    return answer;
  }

  /** The JSON object of a 200 answer, or the error the status stands for. */
  function readOk(answer: Answer, path: string): Record<string, unknown> {
    const label = `GET /admin/api/${options.apiVersion}${path}`;
    if (answer.status < 200 || answer.status >= 300) throw fail(statusError(answer, label));
    const body = parseJson(answer.text);
    if (body === undefined) {
      throw fail({
        status: answer.status,
        code: 'invalid_response',
        retryable: false,
        message: `${label} answered with no JSON object`,
      });
    }
    return body;
  }

  function invalid(answer: Answer, path: string, expected: string): ShopApiError {
    return fail({
      status: answer.status,
      code: 'invalid_response',
      retryable: false,
      message: `GET /admin/api/${options.apiVersion}${path} answered without ${expected}`,
    });
  }

  return {
    async shop() {
      const answer = await get('/shop.json');
      const body = readOk(answer, '/shop.json');
      if (!isObject(body.shop)) throw invalid(answer, '/shop.json', 'a shop');
      return body.shop as unknown as ShopInfo;
    },

    async productsPage({ cursor, limit }) {
      // Like Shopify, a page_info request takes no filter: the cursor already carries the first page's.
      const query: Record<string, string> = cursor
        ? { limit: String(limit), page_info: cursor }
        : { limit: String(limit), status: 'active' };
      const answer = await get('/products.json', query);
      const body = readOk(answer, '/products.json');
      if (!Array.isArray(body.products)) throw invalid(answer, '/products.json', 'a products list');
      return { products: body.products as ShopProduct[], nextCursor: nextPageInfo(answer.headers.get('link')) };
    },

    async product(productId) {
      const path = `/products/${encodeURIComponent(productId)}.json`;
      const answer = await get(path);
      if (answer.status === 404) return undefined;
      const body = readOk(answer, path);
      if (!isObject(body.product)) throw invalid(answer, path, 'a product');
      return body.product as unknown as ShopProduct;
    },
  };
}

function statusError(answer: Answer, label: string): ConstructorParameters<typeof ShopApiError>[0] {
  const { status } = answer;
  const code: ShopApiErrorCode =
    status === 401
      ? 'unauthorized'
      : status === 403
        ? 'forbidden'
        : status === 404
          ? 'not_found'
          : status >= 500
            ? 'server_error'
            : 'bad_request';
  const hint = status === 401 || status === 403 ? ' (check the access token and its scopes)' : '';
  return { status, code, retryable: false, message: `${label} answered ${answered(answer)}${hint}` };
}

/**
 * The status in our words only: an error body is the shop's (or, behind a redirect, anyone's) text, and
 * these messages are shown to the tenant.
 */
function answered(answer: Answer): string {
  return `${answer.status} ${answer.statusText}`.trim();
}

/** The `page_info` of the `rel="next"` URL in a `Link` header, e.g. `<https://…?page_info=abc>; rel="next"`. */
export function nextPageInfo(link: string | null | undefined): string | undefined {
  if (!link) return undefined;
  for (const [, target = '', params = ''] of link.matchAll(/<([^>]*)>([^,<]*)/g)) {
    const rel = /;\s*rel\s*=\s*"?([^";]*)"?/i.exec(params)?.[1] ?? '';
    if (!rel.toLowerCase().split(/\s+/).includes('next')) continue;
    try {
      return new URL(target, 'http://relative.invalid').searchParams.get('page_info') ?? undefined;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

function parseJson(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
