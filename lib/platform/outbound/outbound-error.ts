/** What went wrong with a request to someone else's server, in words that are safe to show its tenant. */
export type OutboundErrorCode =
  /** The name resolves (or a redirect leads) to an address that is not public. */
  | 'refused_address'
  /** Plain http where only https is allowed, or a scheme other than http(s). */
  | 'refused_scheme'
  /** The body went past the byte cap; reading stopped there. */
  | 'too_large'
  | 'too_many_redirects'
  /** No connection: the name did not resolve, the connection was refused or reset, TLS failed. */
  | 'unreachable'
  /** No complete answer within the caller's time. */
  | 'timeout';

const retryableCodes: ReadonlySet<OutboundErrorCode> = new Set(['unreachable', 'timeout']);

/**
 * A failed outbound request. The message names only the host the caller was given and never quotes
 * a socket error (`connect ECONNREFUSED 10.0.0.5:6379`), a resolved address or a body: it is stored
 * as a sync's error and shown to the tenant. No `cause`, for the same reason: serialisers print it.
 */
export class OutboundError extends Error {
  override readonly name = 'OutboundError';
  readonly code: OutboundErrorCode;
  /** True when the same request may succeed later (the server was away); false when it never will as sent. */
  readonly retryable: boolean;

  constructor(code: OutboundErrorCode, message: string) {
    super(message);
    this.code = code;
    this.retryable = retryableCodes.has(code);
  }
}
