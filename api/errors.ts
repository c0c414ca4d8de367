import { dependencyLabels, unavailableDependency } from '#platform/dependency-errors.js';

export interface ErrorDetail {
  path?: string;
  message: string;
  [field: string]: unknown;
}

/**
 * Every failure the API reports, rendered as `{"error": {code, message, details?, requestId?}}`: the
 * contract's shape, plus the answer's request id, which ties it to its log lines and trace.
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: ErrorDetail[],
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'AppError';
  }

  toBody(requestId?: string) {
    return {
      error: {
        code: this.code,
        message: this.message,
        ...(this.details ? { details: this.details } : {}),
        ...(requestId ? { requestId } : {}),
      },
    };
  }
}

export const invalidPayload = (message: string, details?: ErrorDetail[]) =>
  new AppError(400, 'invalid_payload', message, details);
export const unauthorized = (message: string) => new AppError(401, 'unauthorized', message);
export const forbidden = (message: string) => new AppError(403, 'forbidden', message);
export const keyExpired = (message = 'This API key has expired: create a replacement key with the same scopes.') =>
  new AppError(403, 'key_expired', message);
export const notFound = (message: string) => new AppError(404, 'not_found', message);
export const conflict = (message: string) => new AppError(409, 'conflict', message);
/** A count the tenant's plan bounds is reached: no wait changes it, removing something does. */
export const limitReached = (code: string, message: string) => new AppError(409, code, message);
export const conversationClosed = () =>
  new AppError(409, 'conversation_closed', 'This conversation is closed: start a new one to keep chatting.');
/** A satisfaction score is asked for only after an agent closed the conversation (docs/insights.md). */
export const notClosedByAgent = () =>
  new AppError(409, 'not_closed_by_agent', 'A score can be given once an agent has closed this conversation.');

/** The operator requires verified visitors and the request carried no identity token (docs/widget.md). */
export const identityRequired = () =>
  new AppError(
    403,
    'identity_required',
    "This assistant talks to signed-in visitors only: the page must pass an identity token signed by the site's server.",
  );
/** An identity token that does not verify; `reason` says why (expired, replayed, bad_signature, …). */
export const identityInvalid = (reason: string, message: string) =>
  new AppError(401, 'identity_invalid', message, [{ path: '/identityToken', message: reason }]);

/** A 429: a budget ran out. Which one (`budget`, its name in Redis keys) is for the metrics, never shown. */
export class BudgetRefusal extends AppError {
  constructor(
    readonly budget: string,
    code: string,
    message: string,
    retryAfterSeconds: number,
  ) {
    super(429, code, message, undefined, { 'Retry-After': String(retryAfterSeconds) });
  }
}

export const rateLimited = (retryAfterSeconds: number, subject = 'this API key', budget = 'api-key') =>
  new BudgetRefusal(
    budget,
    'rate_limited',
    `Too many requests for ${subject}: retry after ${retryAfterSeconds} s.`,
    retryAfterSeconds,
  );

/** The operator's AI answers for today are used up: nothing a retry within the day changes. */
export const answerBudgetExhausted = (retryAfterSeconds: number) =>
  new BudgetRefusal(
    'operator-answers',
    'answer_budget_exhausted',
    'This assistant has answered all the messages it may answer today: ask for a person, or write again after midnight UTC.',
    retryAfterSeconds,
  );

/**
 * Turns anything thrown into an AppError: errors from koa and its body parser keep their status,
 * an unreachable dependency becomes 503 naming it, and everything else is a 500 that reveals nothing.
 */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;

  const dependency = unavailableDependency(error);
  if (dependency) {
    const label = dependencyLabels[dependency];
    return new AppError(503, 'unavailable', `${label} is unavailable; retry with backoff.`, [
      { dependency, message: `${label} did not answer.` },
    ]);
  }

  const http = error as { status?: unknown; expose?: unknown };
  if (typeof http.status === 'number' && http.expose === true) return statusError(http.status);
  return new AppError(500, 'internal', 'Something went wrong on our side; retry with backoff.');
}

/** The error for a bare status set by koa or a router (no body of its own). */
export function statusError(status: number): AppError {
  switch (status) {
    case 400:
      return invalidPayload('The request is not valid.');
    case 404:
      return notFound('No such route.');
    case 405:
      return new AppError(405, 'method_not_allowed', 'This route does not accept that method: see the Allow header.');
    case 408:
      return new AppError(408, 'request_timeout', 'The request was not received in time.');
    case 413:
      return new AppError(413, 'payload_too_large', 'The request body is too large: send fewer items or shorter content.');
    case 415:
      return new AppError(415, 'unsupported_media_type', 'Send the request body as JSON (Content-Type: application/json).');
    case 431:
      return new AppError(431, 'headers_too_large', 'The request line and headers are too large (at most 16 KB in all).');
    case 501:
      return new AppError(501, 'not_implemented', 'This method is not supported.');
    default:
      return new AppError(status, status >= 500 ? 'internal' : 'bad_request', 'The request could not be processed.');
  }
}
