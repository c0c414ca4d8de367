import { setTimeout as delay } from 'node:timers/promises';
import { parseRetryAfter } from '#connector-sdk/index.js';
import { OutboundError, type OutboundAnswer, type OutboundGetInit, type OutboundHttp } from '#platform/outbound/outbound-http.js';

/**
 * Statuses that say "not now" rather than "no": rate limited, or a server down or overloaded for a
 * while. Other 5xx (501, 505) are answers about the request and are not waited out.
 */
export const notNowStatuses: ReadonlySet<number> = new Set([429, 500, 502, 503, 504]);

/** How long a source's client waits before it gives up; each has the defaults below. */
export interface Patience {
  /** The guarded way out (lib/platform/outbound/): where a source may be, how much of it is read. */
  http: OutboundHttp;
  sleep?: (ms: number) => Promise<unknown>;
  /** "Not now" answers and requests without an answer waited out in a row before giving up; default 5. */
  maxRetries?: number;
  /** Cap of one wait (Retry-After or backoff); default 60_000. */
  maxWaitMs?: number;
  /** A request (headers and body) without an answer this long counts as no answer; default 30_000. */
  timeoutMs?: number;
  /** Told before each wait, for logs and heartbeats. */
  onWait?: (event: { status?: number; waitMs: number; attempt: number }) => void;
  /** Told of each answer read (whatever its status): the source is making progress. */
  onAnswer?: () => void;
  /**
   * When the caller's budget ends (epoch ms, by `now`): no wait is begun that would end after it, and
   * no request is given longer than what is left; the last try is returned instead.
   */
  deadline?: number;
  now?: () => number;
  /** Cancels the request and the wait under way (an activity's cancellation); the reason is thrown. */
  signal?: AbortSignal;
}

/** One answer read to the end: reading the body can fail like the request itself, so both count as one try. */
export type Answer = OutboundAnswer;

/** The last try: an answer (a "not now" one when the client gave up on it), or the error of no answer. */
export type LastTry<A = Answer> = { answer: A; retries: number } | { answer?: undefined; error: unknown; retries: number };

/** One request, as `OutboundHttp.get` makes it; a crawler asks for bytes instead (`getBytes`). */
export type Fetch<A> = (url: string, init: OutboundGetInit) => Promise<A>;

/**
 * GETs `url` the way a sync must talk to someone else's API: a "not now" answer waits its
 * `Retry-After` (429 and 503; seconds or an HTTP date) or backs off from one second, doubling; so
 * does a request that got no answer in time. Resolves to the first other answer, or to the last try
 * once `maxRetries` waits were not enough, or the next wait would outlast the `deadline`; the caller
 * words the error in its source's terms. A request
 * the rules refuse (an address that is not public, a body past the cap) is not tried again.
 */
export async function getPatiently(url: string, headers: Record<string, string>, patience: Patience): Promise<LastTry>;
export async function getPatiently<A extends Pick<Answer, 'status' | 'headers'>>(
  url: string,
  headers: Record<string, string>,
  patience: Patience,
  fetch: Fetch<A>,
  init?: Omit<OutboundGetInit, 'headers' | 'signal'>,
): Promise<LastTry<A>>;
export async function getPatiently<A extends Pick<Answer, 'status' | 'headers'>>(
  url: string,
  headers: Record<string, string>,
  patience: Patience,
  // Without a fetch, A is Answer (the first signature): `get` is the request.
  fetch: Fetch<A> = (address, init) => patience.http.get(address, init) as Promise<unknown> as Promise<A>,
  init: Omit<OutboundGetInit, 'headers' | 'signal'> = {},
): Promise<LastTry<A>> {
  const { signal } = patience;
  const sleep = patience.sleep ?? ((ms: number) => delay(ms, undefined, signal ? { signal } : {}));
  const now = patience.now ?? Date.now;
  const maxRetries = patience.maxRetries ?? 5;
  const maxWaitMs = patience.maxWaitMs ?? 60_000;
  const timeoutMs = patience.timeoutMs ?? 30_000;
  const left = () => (patience.deadline === undefined ? Infinity : patience.deadline - now());
  const cancelled = () => {
    if (signal?.aborted) throw signal.reason;
  };

  for (let retry = 0; ; retry += 1) {
    cancelled();
    let answer: A | undefined;
    let error: unknown;
    try {
      // A source that accepts the connection and never answers must not hold the sync until its activity times out.
      const timeout = AbortSignal.timeout(Math.max(1, Math.min(timeoutMs, left())));
      answer = await fetch(url, { ...init, headers, signal: signal ? AbortSignal.any([timeout, signal]) : timeout });
      patience.onAnswer?.();
    } catch (caught) {
      cancelled();
      error = caught;
      if (caught instanceof OutboundError && !caught.retryable) return { error, retries: retry };
    }
    if (answer && !notNowStatuses.has(answer.status)) return { answer, retries: retry };
    const giveUp = (): LastTry<A> => (answer ? { answer, retries: retry } : { error, retries: retry });
    if (retry >= maxRetries) return giveUp();

    const requested =
      answer && (answer.status === 429 || answer.status === 503) ? parseRetryAfter(answer.headers.get('retry-after')) : undefined;
    const waitMs = Math.min(requested ?? 1000 * 2 ** retry, maxWaitMs);
    // A wait that would outlast the budget is the caller's to take (Temporal's retry backoff holds no worker slot).
    if (waitMs >= left()) return giveUp();
    patience.onWait?.({ ...(answer ? { status: answer.status } : {}), waitMs, attempt: retry + 1 });
    await Promise.resolve(sleep(waitMs)).catch((caught: unknown) => {
      cancelled();
      throw caught;
    });
  }
}
