/**
 * The published retry policy (service-interface.md, "Errors"): retry 429, 500, 502 and 503 only; at most
 * 3 retries; before retry n wait min(1000 * 2^(n-1), 30000) ms plus random jitter in [0, 1000) ms.
 *
 * Two choices the interface leaves open, made here:
 * - A `Retry-After` header (seconds, or an HTTP date) replaces the computed delay and is honoured as given,
 *   without the 30 s cap and without jitter: the server knows when it will accept us again, and retrying
 *   earlier would only spend the budget on another 429.
 * - A network failure (no response at all) is retried too and counts against the same 3-retry budget.
 */

export const MAX_RETRIES = 3;
export const BASE_DELAY_MS = 1000;
export const MAX_DELAY_MS = 30_000;
export const MAX_JITTER_MS = 1000;

const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 500, 502, 503]);

export function isRetryable(status: number): boolean {
  return RETRYABLE_STATUSES.has(status);
}

/**
 * Milliseconds to wait before retry number `attempt` (1-based). `random` returns a number in [0, 1) as
 * `Math.random` does; it is a parameter so tests can pin the jitter.
 */
export function retryDelayMs(
  attempt: number,
  random: () => number,
  retryAfterHeader?: string | null,
  now: number = Date.now(),
): number {
  const fromServer = parseRetryAfter(retryAfterHeader, now);
  if (fromServer !== undefined) return fromServer;
  const backoff = Math.min(BASE_DELAY_MS * 2 ** (Math.max(attempt, 1) - 1), MAX_DELAY_MS);
  const jitter = Math.min(Math.floor(random() * MAX_JITTER_MS), MAX_JITTER_MS - 1);
  return backoff + Math.max(jitter, 0);
}

/**
 * `Retry-After` as milliseconds: delta-seconds (fractional ones too, as some APIs send "2.0") or an HTTP
 * date (a past date means "now"); undefined if absent or unreadable.
 */
export function parseRetryAfter(header: string | null | undefined, now: number = Date.now()): number | undefined {
  const value = header?.trim();
  if (!value) return undefined;
  if (/^\d+(?:\.\d+)?$/.test(value)) return Math.round(Number(value) * 1000);
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}
