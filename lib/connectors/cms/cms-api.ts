import { OutboundError } from '#platform/outbound/outbound-http.js';
import { getPatiently, notNowStatuses, type Answer, type Patience } from '../retrying-get.js';
import type { CmsEntry, CmsErrorBody, CmsKind } from './cms-types.js';

/*
 * A client of the CMS's REST API (WordPress' `wp-json/wp/v2`), reduced to what a sync needs: listing one
 * page of published posts or pages at a time. Waiting out rate limits and outages happens here, within a
 * bounded budget, so an activity calling `list` sees either a page or an error that says whether trying
 * again later can help.
 */

export interface CmsApiOptions extends Patience {
  /** site root, e.g. https://blog.example or http://127.0.0.1:4567; the REST root is {siteUrl}/wp-json/wp/v2 */
  siteUrl: string;
  /** Basic auth with an application password when both are given */
  username?: string;
  applicationPassword?: string;
}

export interface CmsListOptions {
  page: number;
  perPage: number;
  orderBy: 'id' | 'modified';
  /**
   * ISO 8601; entries modified strictly after. The CMS keeps whole seconds, so a cursor equal to the last
   * seen `modified_gmt` misses other entries changed within that same second.
   */
  modifiedAfter?: string;
  /** Only these ids; an empty list matches nothing (and sends no request). */
  include?: number[];
}

export interface CmsListPage {
  entries: CmsEntry[];
  /** X-WP-Total */
  total: number;
  /** X-WP-TotalPages */
  totalPages: number;
}

export interface CmsApi {
  list(kind: CmsKind, options: CmsListOptions): Promise<CmsListPage>;
}

export type CmsApiErrorCode =
  'rate_limited' | 'server_error' | 'unreachable' | 'invalid_response' | 'invalid_site_url' | (string & {});

export class CmsApiError extends Error {
  override readonly name = 'CmsApiError';
  /** The HTTP status, undefined when no answer arrived. */
  readonly status: number | undefined;
  /**
   * The CMS's code (`rest_invalid_param`, …), `http_<status>` for an error without a CMS body, or one of
   * ours (an `OutboundError` code among them: `refused_address`, `too_large`, …).
   */
  readonly code: CmsApiErrorCode;
  /** True when the same request may succeed later (rate limit, outage); false when it never will as sent. */
  readonly retryable: boolean;

  /** No `cause`: serialisers (loggers, Temporal failures) print it unredacted; its gist is in the message. */
  constructor(message: string, { status, code, retryable }: { status?: number; code: CmsApiErrorCode; retryable: boolean }) {
    super(message);
    this.status = status;
    this.code = code;
    this.retryable = retryable;
  }
}

const REST_PATH = '/wp-json/wp/v2';
const INVALID_PAGE = 'rest_post_invalid_page_number';

export function createCmsApi(options: CmsApiOptions): CmsApi {
  const root = restRoot(options.siteUrl);
  const { username, applicationPassword } = options;
  const headers: Record<string, string> = { accept: 'application/json' };
  if (username && applicationPassword) {
    headers.authorization = `Basic ${Buffer.from(`${username}:${applicationPassword}`).toString('base64')}`;
  }

  /** Every message leaves through here: whatever the CMS or the network layer wrote, the password stays out. */
  function failure(message: string, details: ConstructorParameters<typeof CmsApiError>[1]): CmsApiError {
    const safe = applicationPassword ? message.replaceAll(applicationPassword, '[redacted]') : message;
    return new CmsApiError(safe, details);
  }

  async function list(kind: CmsKind, listOptions: CmsListOptions): Promise<CmsListPage> {
    if (listOptions.include?.length === 0) return { entries: [], total: 0, totalPages: 0 };
    const url = listUrl(root, kind, listOptions);
    const what = `GET ${kind} page ${listOptions.page}`;

    const last = await getPatiently(url, headers, options);
    const gaveUp = ` (gave up after ${last.retries} ${last.retries === 1 ? 'retry' : 'retries'})`;
    if (!last.answer) {
      const { error } = last;
      if (error instanceof OutboundError && !error.retryable) {
        throw failure(`${what}: ${error.message}`, { code: error.code, retryable: false });
      }
      const reason = error instanceof OutboundError ? error.message : 'could not connect to the site';
      throw failure(`${what}: the CMS is unreachable (${reason})${gaveUp}`, { code: 'unreachable', retryable: true });
    }
    const { answer } = last;
    if (answer.status >= 200 && answer.status < 300) {
      return readPage(answer, listOptions, (message) => failure(`${what}: ${message}`, invalid(answer)));
    }

    const body = readErrorBody(answer.text);
    const { status } = answer;
    // WordPress refuses a page past the last one instead of answering an empty list.
    if (status === 400 && body?.code === INVALID_PAGE) {
      return {
        entries: [],
        total: headerCount(answer, 'x-wp-total') ?? 0,
        totalPages: headerCount(answer, 'x-wp-totalpages') ?? 0,
      };
    }
    // The status in our words only: an error body is the site's (or, behind a redirect, anyone's) text,
    // and this message is shown to the tenant.
    const answered = `${status} ${answer.statusText}`.trim();
    if (notNowStatuses.has(status)) {
      throw failure(`${what}: the CMS answered ${answered}${gaveUp}`, {
        status,
        code: status === 429 ? 'rate_limited' : 'server_error',
        retryable: true,
      });
    }
    const hint = status === 401 || status === 403 ? ' (check the username and application password)' : '';
    throw failure(`${what}: the CMS answered ${answered}${hint}`, { status, code: cmsCodeOf(body, status), retryable: false });
  }

  return { list };
}

/**
 * `https://blog.example/` → `https://blog.example/wp-json/wp/v2`; a site in a subfolder keeps its path. A
 * bad address is a `CmsApiError` like any other refusal, so callers need no second error path for it.
 */
function restRoot(siteUrl: string): string {
  const refuse = (message: string) => new CmsApiError(message, { code: 'invalid_site_url', retryable: false });
  let url: URL;
  try {
    url = new URL(siteUrl);
  } catch {
    throw refuse('The CMS site URL is not a valid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw refuse('The CMS site URL must start with http:// or https://');
  // fetch refuses such URLs and quotes them whole in its error: reject before the credentials can leak.
  if (url.username || url.password) {
    throw refuse('The CMS site URL must not contain credentials; give the username and application password instead');
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}${REST_PATH}`;
}

function listUrl(root: string, kind: CmsKind, { page, perPage, orderBy, modifiedAfter, include }: CmsListOptions): string {
  const query = new URLSearchParams({
    page: String(page),
    per_page: String(perPage),
    orderby: orderBy,
    order: 'asc',
    status: 'publish',
    _embed: 'author,wp:term',
  });
  if (modifiedAfter !== undefined) query.set('modified_after', modifiedAfter);
  if (include !== undefined) query.set('include', include.join(','));
  return `${root}/${kind}?${query}`;
}

function readPage(answer: Answer, { page, perPage }: CmsListOptions, invalid: (message: string) => CmsApiError): CmsListPage {
  let entries: unknown;
  try {
    entries = JSON.parse(answer.text);
  } catch {
    throw invalid(`the CMS answered ${answer.status} with a body that is not JSON`);
  }
  if (!Array.isArray(entries) || !entries.every(isEntry)) {
    throw invalid(`the CMS answered ${answer.status} with something other than a list of entries`);
  }
  const total = headerCount(answer, 'x-wp-total');
  const totalPages = headerCount(answer, 'x-wp-totalpages');
  if (total !== undefined && totalPages !== undefined) return { entries, total, totalPages };
  // A proxy that drops the X-WP-* headers: count what is known, and promise one more page while this one is full.
  const known = (page - 1) * perPage + entries.length;
  return { entries, total: total ?? known, totalPages: totalPages ?? (entries.length === perPage ? page + 1 : page) };
}

function isEntry(value: unknown): value is CmsEntry {
  if (typeof value !== 'object' || value === null) return false;
  const entry = value as Partial<CmsEntry>;
  return typeof entry.id === 'number' && typeof entry.modified_gmt === 'string';
}

function invalid(answer: Answer): { status: number; code: CmsApiErrorCode; retryable: boolean } {
  // A site that answers HTML at its REST root (permalinks off, not WordPress) does not heal by retrying.
  return { status: answer.status, code: 'invalid_response', retryable: false };
}

function readErrorBody(text: string): CmsErrorBody | undefined {
  try {
    const body: unknown = JSON.parse(text);
    if (typeof body !== 'object' || body === null) return undefined;
    const { code, message } = body as Partial<CmsErrorBody>;
    return typeof code === 'string' && typeof message === 'string' ? (body as CmsErrorBody) : undefined;
  } catch {
    return undefined;
  }
}

/** The CMS's own code when it looks like one (`rest_invalid_param`), for the failure's type and logs; never shown. */
function cmsCodeOf(body: CmsErrorBody | undefined, status: number): CmsApiErrorCode {
  return body && /^[a-z0-9_]{1,64}$/.test(body.code) ? body.code : `http_${status}`;
}

function headerCount(answer: Pick<Answer, 'headers'>, name: string): number | undefined {
  const value = answer.headers.get(name)?.trim();
  return value && /^\d+$/.test(value) ? Number(value) : undefined;
}
