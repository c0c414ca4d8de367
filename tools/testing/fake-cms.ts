/**
 * A stand-in for a WordPress site's REST API (`/wp-json/wp/v2/posts` and `/pages`) on 127.0.0.1, for tests
 * of the CMS connector over real HTTP. It answers as WordPress does where a connector can tell: the paging
 * headers and `Link`, the 400 for a page past the last, `rest_invalid_param` with per-parameter reasons,
 * `_embed` of authors and terms, term names HTML-escaped, password-protected content served empty, and
 * ids shared by posts and pages. Drafts stay in the store but are never listed, as for a visitor.
 *
 * Modification times have whole seconds, as in WordPress. Every write (one `addPosts`/`addPages` call or
 * one `updateEntry`) is stamped strictly after every earlier modification and no earlier than the current
 * second, so both "after the newest `modified_gmt` seen" and "after the wall-clock start of a sync" cursors
 * find it.
 *
 * The site's users and terms and the generated posts and pages come from `fake-cms-content.ts`.
 */
import type { IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import type { CmsEntry, CmsErrorBody, CmsKind } from '#connectors/cms/cms-types.js';
import { buildEntry, embeddedAuthor, embeddedTerms, toGmt } from './fake-cms-content.js';
import { startAnsweringFake, type FakeAnswer as Answer } from './http-fake.js';

export { fakeCmsAuthors, fakeCmsTerms } from './fake-cms-content.js';

export interface FakeCmsOptions {
  /** default 100, above → 400 rest_invalid_param */
  maxPerPage?: number;
  /** require Basic auth with this user/app password */
  auth?: { username: string; password: string };
}

export interface FakeCms {
  url: string;
  /** every request answered, in order */
  requests: Array<{ method: string; path: string; query: Record<string, string>; status: number }>;
  /** n generated published posts (deterministic, varied: authors, categories, tags, HTML content with entities, excerpts) or given partial ones; ids increase across posts and pages like WordPress */
  addPosts(posts: number | Array<Partial<CmsEntry>>): CmsEntry[];
  addPages(pages: number | Array<Partial<CmsEntry>>): CmsEntry[];
  /** Every stored entry of the kind, drafts included, by id. */
  entries(kind: CmsKind): CmsEntry[];
  /** sets modified_gmt to a time strictly after every other modification */
  updateEntry(kind: CmsKind, id: number, changes: Partial<CmsEntry>): CmsEntry;
  deleteEntry(kind: CmsKind, id: number): void;
  /** The next `count` requests answer 429 rest_too_many_requests with `Retry-After` (default 1 s). */
  rateLimitNext(count: number, retryAfterSeconds?: number): void;
  /** The next `count` requests answer `status`: WordPress' critical-error JSON for 500, a proxy's HTML page otherwise. */
  failNext(count: number, status: 500 | 502 | 503): void;
  /**
   * Hostile: every list answers 200 with `X-WP-TotalPages` (and `X-WP-Total`) claiming `totalPages`,
   * whatever it holds, and a page past the real last one is an empty list rather than a 400.
   */
  claimTotalPages(totalPages: number): void;
  /** Hostile: from now on every request is held open, unanswered, until the site closes. */
  holdRequests(): void;
  /** Requests held open unanswered so far. */
  readonly held: number;
  /** Runs after each answered request: a test changes the site mid-sync with it (say, deletes a post between two pages). */
  afterEachRequest(listener: ((request: FakeCms['requests'][number]) => void) | undefined): void;
  close(): Promise<void>;
}

const REST_ROUTE = /^\/wp-json\/wp\/v2\/(posts|pages)\/?$/;
const ORDER_BY = ['date', 'id', 'modified', 'slug', 'title'] as const;
const STATUSES: readonly string[] = ['publish', 'future', 'draft', 'pending', 'private', 'any'];
// WordPress' rest_parse_date pattern: a zone is optional (then it is the site's, UTC here).
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}(?::?\d{2})?)?$/;

export async function startFakeCms({ maxPerPage = 100, auth }: FakeCmsOptions = {}): Promise<FakeCms> {
  const store: Record<CmsKind, Map<number, CmsEntry>> = { posts: new Map(), pages: new Map() };
  const scripted: Answer[] = [];
  const requests: FakeCms['requests'] = [];
  let nextId = 1;
  let lastStamp = 0;
  let claimedTotalPages: number | undefined;
  let holding = false;
  let held = 0;
  let url = '';

  /** A write's time: whole seconds, after every modification so far, not before now. */
  function stamp(): string {
    const latest = Math.max(lastStamp, ...allEntries().map((entry) => gmtMs(entry.modified_gmt)));
    lastStamp = Math.max(Math.floor(Date.now() / 1000) * 1000, latest + 1000);
    return toGmt(lastStamp);
  }

  function allEntries(): CmsEntry[] {
    return [...store.posts.values(), ...store.pages.values()];
  }

  function add(kind: CmsKind, input: number | Array<Partial<CmsEntry>>): CmsEntry[] {
    const partials = typeof input === 'number' ? Array.from({ length: input }, (): Partial<CmsEntry> => ({})) : input;
    const modified = stamp();
    return partials.map((partial) => {
      const id = partial.id ?? nextId;
      if (store.posts.has(id) || store.pages.has(id)) throw new Error(`fake CMS: id ${id} is taken`);
      nextId = Math.max(nextId, id + 1);
      const entry = buildEntry(kind, id, modified, partial, url);
      store[kind].set(id, entry);
      return structuredClone(entry);
    });
  }

  function stored(kind: CmsKind, id: number): CmsEntry {
    const entry = store[kind].get(id);
    if (!entry) throw new Error(`fake CMS: no ${kind} entry ${id}`);
    return entry;
  }

  function answer(request: IncomingMessage, requestUrl: URL): Answer | Promise<Answer> {
    if (holding) {
      held += 1;
      return new Promise<Answer>(() => undefined);
    }
    const failure = scripted.shift();
    if (failure) return failure;
    const refused = auth ? checkAuth(request.headers.authorization, auth) : undefined;
    if (refused) return refused;
    const route = REST_ROUTE.exec(requestUrl.pathname);
    if (request.method !== 'GET' || !route) {
      return error(404, 'rest_no_route', 'No route was found matching the URL and request method.');
    }
    return list(route[1] as CmsKind, requestUrl, auth !== undefined);
  }

  function list(kind: CmsKind, requestUrl: URL, authenticated: boolean): Answer {
    const parsed = parseQuery(requestUrl.searchParams, { maxPerPage, authenticated });
    if ('status' in parsed) return parsed;
    const { page, perPage, orderBy, order, statuses, modifiedAfter, include, embed } = parsed;
    const matching = [...store[kind].values()]
      // Only published entries are ever listed; the store keeps the rest for updates and assertions.
      .filter((entry) => entry.status === 'publish' && (statuses.includes('publish') || statuses.includes('any')))
      .filter((entry) => include === undefined || include.includes(entry.id))
      .filter((entry) => modifiedAfter === undefined || gmtMs(entry.modified_gmt) > modifiedAfter)
      .sort((a, b) => (order === 'asc' ? 1 : -1) * compareBy(orderBy, a, b));
    const total = claimedTotalPages === undefined ? matching.length : claimedTotalPages * perPage;
    const totalPages = claimedTotalPages ?? Math.ceil(total / perPage);
    if (page > totalPages && total > 0) {
      return error(
        400,
        'rest_post_invalid_page_number',
        'The page number requested is larger than the number of pages available.',
      );
    }
    const headers: OutgoingHttpHeaders = { 'x-wp-total': String(total), 'x-wp-totalpages': String(totalPages) };
    const links = [];
    const linkTo = (target: number) => {
      const query = new URLSearchParams(requestUrl.searchParams);
      query.set('page', String(target));
      return `<${url}${requestUrl.pathname}?${query}>`;
    };
    if (page > 1) links.push(`${linkTo(Math.min(page - 1, totalPages))}; rel="prev"`);
    if (totalPages > page) links.push(`${linkTo(page + 1)}; rel="next"`);
    if (links.length > 0) headers.link = links;
    const body = matching.slice((page - 1) * perPage, page * perPage).map((entry) => served(entry, embed));
    return { status: 200, headers, body };
  }

  let afterEach: ((request: FakeCms['requests'][number]) => void) | undefined;
  const server = await startAnsweringFake({
    answer,
    failed: (cause) => error(500, 'internal_server_error', `fake CMS bug: ${String(cause)}`),
    answered(request, requestUrl, { status }) {
      const answered = {
        method: request.method ?? '',
        path: requestUrl.pathname,
        query: Object.fromEntries(requestUrl.searchParams),
        status,
      };
      requests.push(answered);
      afterEach?.(answered);
    },
    contentType: { json: 'application/json; charset=UTF-8', html: 'text/html; charset=UTF-8' },
  });
  url = server.url;

  return {
    url,
    requests,
    addPosts: (posts) => add('posts', posts),
    afterEachRequest(listener) {
      afterEach = listener;
    },
    addPages: (pages) => add('pages', pages),
    entries: (kind) => [...store[kind].values()].sort((a, b) => a.id - b.id).map((entry) => structuredClone(entry)),
    updateEntry(kind, id, changes) {
      const entry = stored(kind, id);
      const updated: CmsEntry = { ...entry, ...structuredClone(changes), id, type: entry.type, modified_gmt: stamp() };
      store[kind].set(id, updated);
      return structuredClone(updated);
    },
    deleteEntry(kind, id) {
      stored(kind, id);
      store[kind].delete(id);
    },
    claimTotalPages(totalPages) {
      claimedTotalPages = totalPages;
    },
    holdRequests() {
      holding = true;
    },
    get held() {
      return held;
    },
    rateLimitNext(count, retryAfterSeconds = 1) {
      const tooMany = error(429, 'rest_too_many_requests', 'Too many requests.');
      for (let i = 0; i < count; i++) scripted.push({ ...tooMany, headers: { 'retry-after': String(retryAfterSeconds) } });
    },
    failNext(count, status) {
      for (let i = 0; i < count; i++) scripted.push(outage(status));
    },
    close: server.close,
  };
}

// ---- Requests --------------------------------------------------------------------------------------

interface ListQuery {
  page: number;
  perPage: number;
  orderBy: (typeof ORDER_BY)[number];
  order: 'asc' | 'desc';
  statuses: string[];
  modifiedAfter: number | undefined;
  include: number[] | undefined;
  /** Relations to embed: `author`, `wp:term`; empty when `_embed` is absent. */
  embed: string[];
}

/** Validates every parameter first and reports all bad ones in one `rest_invalid_param`, as WordPress does. */
function parseQuery(
  query: URLSearchParams,
  { maxPerPage, authenticated }: { maxPerPage: number; authenticated: boolean },
): ListQuery | Answer {
  const invalid: Record<string, { code: string; message: string }> = {};
  const integer = (name: string, fallback: number, min: number, max?: number): number => {
    const raw = query.get(name);
    if (raw === null) return fallback;
    const value = Number(raw);
    if (raw.trim() === '' || !Number.isInteger(value))
      invalid[name] = { code: 'rest_invalid_type', message: `${name} is not of type integer.` };
    else if (max !== undefined && (value < min || value > max)) {
      invalid[name] = {
        code: 'rest_out_of_bounds',
        message: `${name} must be between ${min} (inclusive) and ${max} (inclusive)`,
      };
    } else if (value < min)
      invalid[name] = { code: 'rest_out_of_bounds', message: `${name} must be greater than or equal to ${min}` };
    return value;
  };
  const oneOf = <T extends string>(name: string, allowed: readonly T[], fallback: T): T => {
    const raw = query.get(name) ?? fallback;
    if (allowed.includes(raw as T)) return raw as T;
    invalid[name] = {
      code: 'rest_not_in_enum',
      message: `${name} is not one of ${allowed.slice(0, -1).join(', ')} and ${allowed.at(-1)}.`,
    };
    return fallback;
  };

  const page = integer('page', 1, 1);
  const perPage = integer('per_page', 10, 1, maxPerPage);
  const orderBy = oneOf('orderby', ORDER_BY, 'date');
  const order = oneOf('order', ['asc', 'desc'] as const, 'desc');
  const statuses = (query.get('status') ?? 'publish').split(',');
  if (statuses.some((status) => !STATUSES.includes(status))) {
    invalid.status = { code: 'rest_not_in_enum', message: `status[0] is not one of ${STATUSES.join(', ')}.` };
  } else if (!authenticated && statuses.some((status) => status !== 'publish')) {
    invalid.status = { code: 'rest_forbidden_status', message: 'Status is forbidden.' };
  }
  const after = query.get('modified_after');
  const modifiedAfter = after === null ? undefined : DATE_TIME.test(after) ? Date.parse(withZone(after)) : undefined;
  if (after !== null && (modifiedAfter === undefined || Number.isNaN(modifiedAfter))) {
    invalid.modified_after = { code: 'rest_invalid_date', message: 'Invalid date.' };
  }
  const includeRaw = query.get('include');
  const include = includeRaw === null || includeRaw === '' ? undefined : includeRaw.split(',').map(Number);
  const badInclude = include?.findIndex((id) => !Number.isInteger(id) || id < 0) ?? -1;
  if (badInclude >= 0) invalid.include = { code: 'rest_invalid_type', message: `include[${badInclude}] is not of type integer.` };
  const embedRaw = query.get('_embed');
  const embed = embedRaw === null ? [] : ['', '1', 'true'].includes(embedRaw) ? ['author', 'wp:term'] : embedRaw.split(',');

  const names = Object.keys(invalid);
  if (names.length > 0) {
    return error(400, 'rest_invalid_param', `Invalid parameter(s): ${names.join(', ')}`, {
      params: Object.fromEntries(names.map((name) => [name, invalid[name]!.message])),
      details: Object.fromEntries(names.map((name) => [name, { ...invalid[name], data: null }])),
    });
  }
  return { page, perPage, orderBy, order, statuses, modifiedAfter, include, embed };
}

/** Application passwords as WordPress checks them: spaces in the password do not count. */
function checkAuth(header: string | undefined, expected: { username: string; password: string }): Answer | undefined {
  if (!header?.startsWith('Basic ')) return error(401, 'rest_not_logged_in', 'You are not currently logged in.');
  const decoded = Buffer.from(header.slice('Basic '.length), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const [username, password] = colon < 0 ? [decoded, ''] : [decoded.slice(0, colon), decoded.slice(colon + 1)];
  if (username !== expected.username) {
    return error(401, 'invalid_username', 'Unknown username. Check again or try your email address.');
  }
  if (password.replaceAll(' ', '') !== expected.password.replaceAll(' ', '')) {
    return error(401, 'incorrect_password', 'The provided password is an invalid application password.');
  }
  return undefined;
}

function error(status: number, code: string, message: string, data: Record<string, unknown> = {}): Answer {
  return { status, body: { code, message, data: { status, ...data } } satisfies CmsErrorBody };
}

function outage(status: 500 | 502 | 503): Answer {
  if (status === 500) {
    const message =
      '<p>There has been a critical error on this website.</p><p><a href="https://wordpress.org/documentation/article/faq-troubleshooting/">Learn more about troubleshooting WordPress.</a></p>';
    return { status, body: { code: 'internal_server_error', message, data: { status }, additional_errors: [] } };
  }
  const title = status === 502 ? '502 Bad Gateway' : '503 Service Temporarily Unavailable';
  return {
    status,
    body: `<html><head><title>${title}</title></head><body><center><h1>${title}</h1></center><hr><center>nginx</center></body></html>`,
  };
}

// ---- Entries ---------------------------------------------------------------------------------------

/** An entry as a visitor gets it: protected text withheld, `_embedded` only as asked. */
function served(entry: CmsEntry, embed: string[]): CmsEntry {
  const { _embedded: given, ...rest } = structuredClone(entry);
  if (rest.content.protected) rest.content.rendered = '';
  if (rest.excerpt.protected) rest.excerpt.rendered = '';
  const embedded: NonNullable<CmsEntry['_embedded']> = {};
  if (embed.includes('author')) {
    embedded.author = given?.author ?? [embeddedAuthor(rest.author)];
  }
  if (embed.includes('wp:term') && rest.type === 'post') {
    embedded['wp:term'] = given?.['wp:term'] ?? [
      embeddedTerms(rest.categories, 'category'),
      embeddedTerms(rest.tags, 'post_tag'),
    ];
  }
  return Object.keys(embedded).length > 0 ? { ...rest, _embedded: embedded } : rest;
}

/** WordPress sorts by one column; equal values keep id order here so pages never overlap. */
function compareBy(orderBy: ListQuery['orderBy'], a: CmsEntry, b: CmsEntry): number {
  const key = (entry: CmsEntry): string | number =>
    orderBy === 'id'
      ? entry.id
      : orderBy === 'date'
        ? entry.date_gmt
        : orderBy === 'modified'
          ? entry.modified_gmt
          : orderBy === 'slug'
            ? entry.slug
            : entry.title.rendered;
  const [x, y] = [key(a), key(b)];
  return x < y ? -1 : x > y ? 1 : a.id - b.id;
}

function gmtMs(gmt: string): number {
  return Date.parse(withZone(gmt));
}

function withZone(dateTime: string): string {
  return /(?:Z|[+-]\d{2}(?::?\d{2})?)$/i.test(dateTime) ? dateTime : `${dateTime}Z`;
}
