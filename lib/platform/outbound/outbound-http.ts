import { STATUS_CODES } from 'node:http';
import { isIP } from 'node:net';
import { Agent, fetch as undiciFetch, type Dispatcher } from 'undici';
import { isReachable, type AllowedNetworks } from './address-rules.js';
import { readCappedBytes, readCappedText, type StreamedResponse } from './capped-body.js';
import { AddressRefusedError, guardedConnector, systemResolve, type Resolve } from './guarded-connector.js';
import { OutboundError } from './outbound-error.js';

export { OutboundError, type OutboundErrorCode } from './outbound-error.js';
export { everyNetwork, type AllowedNetworks } from './address-rules.js';
export type { Resolve } from './guarded-connector.js';

/*
 * The one way a request made on a tenant's behalf (a connector reading a shop or a site) leaves the
 * service. Every connection is checked where it is made (`guarded-connector.ts`); redirects are
 * followed by hand, a bounded number of times, each hop checked again; the body is read up to a cap.
 */

export interface OutboundPolicy {
  /** Networks reachable although not public; empty in production (see `address-rules.ts`). */
  allowedNetworks: AllowedNetworks;
  /** Refuse plain http, on the first request and on every redirect (production). */
  httpsOnly: boolean;
  /** Largest body read; a larger one fails with `too_large`. */
  maxResponseBytes: number;
  /** Redirects followed per request; one more fails with `too_many_redirects`. Default 5. */
  maxRedirects?: number;
}

/** The transport underneath: undici's fetch with the guarded dispatcher, or a stand-in in unit tests. */
export type Transport = (
  url: string,
  init: {
    method: 'GET' | 'POST';
    headers: Record<string, string>;
    body?: string;
    signal?: AbortSignal;
    redirect: 'manual';
    dispatcher?: Dispatcher;
  },
) => Promise<StreamedResponse & { status: number }>;

export interface OutboundHttpOptions extends OutboundPolicy {
  /** Name resolution; by default the system's (getaddrinfo). */
  resolve?: Resolve;
  /** Unit tests of a client stand in for the network here; the URL, redirect and size rules still apply. */
  transport?: Transport;
  /** A connection not made within this long fails (unreachable); default 10 s. */
  connectTimeoutMs?: number;
}

/** An answer read to its end. */
export interface OutboundAnswer {
  status: number;
  /** The address that answered: the one asked for, or where its redirects led. */
  url: string;
  /** The standard reason phrase of the status: the server's own is its text, not ours to repeat. */
  statusText: string;
  headers: { get(name: string): string | null };
  text: string;
}

/** An answer read to its end as bytes: a file. */
export interface OutboundFile extends Omit<OutboundAnswer, 'text'> {
  bytes: Buffer;
}

/** A GET's headers and signal, and which redirects it follows. */
export interface OutboundGetInit {
  headers: Record<string, string>;
  signal?: AbortSignal;
  /**
   * Asked before each redirect is followed (whose hop the address rules check then): false answers the
   * redirect itself (its status and `location`), so a crawler keeps to its scope. Every redirect by default.
   */
  followRedirect?: (next: URL) => boolean;
}

export interface OutboundHttp {
  /** GETs `url`; throws an `OutboundError` when there is no answer to give (never a socket error). */
  get(url: string, init: OutboundGetInit): Promise<OutboundAnswer>;
  close(): Promise<void>;
}

/** Files fetched on a tenant's behalf (an agent's image or document), by the same rules. */
export interface OutboundFiles {
  /** GETs `url` as `get` does and answers its body as bytes, at most `maxBytes` (default: the policy's cap). */
  getBytes(url: string, init: OutboundGetInit & { maxBytes?: number }): Promise<OutboundFile>;
}

/** Signed deliveries to tenants' endpoints (outbound events) leave this way. */
export interface OutboundPost {
  /**
   * POSTs `body` to `url` once: a redirect is not followed but answered as it is (a signed delivery
   * goes where it was registered, or nowhere). The same address, scheme and size rules as `get`.
   */
  post(url: string, init: { headers: Record<string, string>; body: string; signal?: AbortSignal }): Promise<OutboundAnswer>;
}

const redirectStatuses: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);
/** Headers that may follow a redirect to another origin; credentials (Authorization, tokens) never do. */
const portableHeaders: ReadonlySet<string> = new Set(['accept', 'accept-language', 'user-agent']);

export function createOutboundHttp(options: OutboundHttpOptions): OutboundHttp & OutboundFiles & OutboundPost {
  const { allowedNetworks, httpsOnly, maxResponseBytes, maxRedirects = 5 } = options;
  const agent = options.transport
    ? undefined
    : new Agent({
        connect: guardedConnector(options.resolve ?? systemResolve, allowedNetworks, options.connectTimeoutMs ?? 10_000),
      });
  const transport: Transport = options.transport ?? ((url, init) => undiciFetch(url, { ...init, dispatcher: agent }));

  async function get(address: string, init: OutboundGetInit): Promise<OutboundAnswer> {
    const { body, ...answer } = await request(address, init, (response, host) =>
      readCappedText(response, maxResponseBytes, host),
    );
    return { ...answer, text: body };
  }

  async function getBytes(
    address: string,
    { maxBytes = maxResponseBytes, ...init }: OutboundGetInit & { maxBytes?: number },
  ): Promise<OutboundFile> {
    const { body, ...answer } = await request(address, init, (response, host) => readCappedBytes(response, maxBytes, host));
    return { ...answer, bytes: body };
  }

  /** Follows redirects, each hop checked, and reads the final answer's body with `read`. */
  async function request<B>(
    address: string,
    init: OutboundGetInit,
    read: (response: StreamedResponse, host: string) => Promise<B>,
  ): Promise<Omit<OutboundAnswer, 'text'> & { body: B }> {
    let url = new URL(address);
    // Messages name the host the caller gave, wherever a redirect led.
    const host = url.hostname;
    let headers = init.headers;
    for (let hop = 0; ; hop += 1) {
      const redirected = hop > 0;
      checkHop(url, host, redirected);
      let response: Awaited<ReturnType<Transport>>;
      try {
        response = await transport(url.href, {
          method: 'GET',
          headers,
          redirect: 'manual',
          ...(init.signal ? { signal: init.signal } : {}),
        });
      } catch (error) {
        throw outboundError(error, host, redirected);
      }
      const location = redirectStatuses.has(response.status) ? response.headers.get('location') : null;
      const next = location === null ? undefined : redirectTarget(location, url, host);
      if (next === undefined || (init.followRedirect && !init.followRedirect(next))) {
        try {
          const body = await read(response, host);
          const { status, headers } = response;
          return { status, statusText: reasonPhrase(status), url: url.href, headers, body };
        } catch (error) {
          throw outboundError(error, host, redirected);
        }
      }
      await response.body?.cancel().catch(() => undefined);
      if (hop >= maxRedirects)
        throw new OutboundError('too_many_redirects', `${host} redirected more than ${maxRedirects} times`);
      if (next.origin !== url.origin) headers = portable(headers);
      url = next;
    }
  }

  async function post(
    address: string,
    init: { headers: Record<string, string>; body: string; signal?: AbortSignal },
  ): Promise<OutboundAnswer> {
    const url = new URL(address);
    const host = url.hostname;
    checkHop(url, host, false);
    try {
      const response = await transport(url.href, {
        method: 'POST',
        headers: init.headers,
        body: init.body,
        redirect: 'manual',
        ...(init.signal ? { signal: init.signal } : {}),
      });
      const text = await readCappedText(response, maxResponseBytes, host);
      return { status: response.status, statusText: reasonPhrase(response.status), url: url.href, headers: response.headers, text };
    } catch (error) {
      throw outboundError(error, host, false);
    }
  }

  function checkHop(url: URL, host: string, redirected: boolean): void {
    const via = redirected ? `${host} redirected to` : `${host}:`;
    if (url.protocol !== 'https:' && (httpsOnly || url.protocol !== 'http:')) {
      throw new OutboundError(
        'refused_scheme',
        `${via} ${redirected ? 'an address that is not https' : 'only https addresses are allowed'}`,
      );
    }
    // Credentials in the URL would be sent as Basic auth, and quoted by fetch in its errors.
    url.username = '';
    url.password = '';
    const literal = url.hostname.replace(/^\[|\]$/g, '');
    if (isIP(literal) !== 0 && !isReachable(literal, allowedNetworks)) throw refusedAddress(host, redirected);
  }

  return {
    get,
    getBytes,
    post,
    async close() {
      await agent?.close();
    },
  };
}

function redirectTarget(location: string, from: URL, host: string): URL {
  try {
    return new URL(location, from);
  } catch {
    throw new OutboundError('unreachable', `${host} redirected to an address that is not a valid URL`);
  }
}

function portable(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => portableHeaders.has(name.toLowerCase())));
}

function refusedAddress(host: string, redirected: boolean): OutboundError {
  return new OutboundError(
    'refused_address',
    redirected ? `${host} redirected to an address that is not public` : `${host} is not at a public address`,
  );
}

/** Whatever failed, an error that says what kind of failure it was and nothing the network layer said. */
function outboundError(error: unknown, host: string, redirected: boolean): OutboundError {
  if (error instanceof OutboundError) return error;
  for (let cause: unknown = error; cause instanceof Error; cause = cause.cause) {
    if (cause instanceof AddressRefusedError) return refusedAddress(host, redirected);
    if (cause.name === 'TimeoutError' || cause.name === 'AbortError')
      return new OutboundError('timeout', `no answer from ${host} in time`);
  }
  return new OutboundError('unreachable', `could not connect to ${host}`);
}

/** The standard phrase of a status (`401` → `Unauthorized`). */
function reasonPhrase(status: number): string {
  return STATUS_CODES[status] ?? '';
}
