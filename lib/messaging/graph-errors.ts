import type { DeliveryProblem } from '#conversations/events.js';

/**
 * The Graph API's errors, sorted by what the channel does about them. The sorting goes by the
 * error's `code`, as Meta advises: HTTP statuses differ between gateways for the same code (some
 * answer throttling with 429, Meta with 400) and the message texts change. Only an answer that has
 * no code we know (a proxy's HTML page, a new code) is judged by its status: 429 and 5xx are worth
 * another try, the rest are not.
 */

/**
 * - `retryable`: try again later with backoff (throttling, platform trouble, no answer at all).
 *   131056 is the pair limit: retry later for that one customer only.
 * - `window_closed`: more than 24 hours since the customer last wrote; only templates may be sent,
 *   so a human (or the customer writing again) has to take it from here.
 * - `token_invalid`: the connection's access token is expired or revoked; it needs a new one.
 * - `recipient_unavailable`: this customer cannot be reached (not on WhatsApp, blocked us, …).
 * - `invalid_payload`: our message was not valid; a bug, do not retry.
 * - `permanent`: everything else; do not retry.
 */
export type GraphErrorKind =
  'retryable' | 'window_closed' | 'token_invalid' | 'recipient_unavailable' | 'invalid_payload' | 'permanent';

const kindsByCode = new Map<number, GraphErrorKind>([
  ...codes('retryable', [2, 4, 80007, 130429, 131000, 131016, 131056, 131057]),
  ...codes('window_closed', [131047]),
  ...codes('token_invalid', [0, 190]),
  ...codes('recipient_unavailable', [131021, 131026, 131030, 130497]),
  ...codes('invalid_payload', [100, 131008, 131009, 131051]),
  // Known not to get better by trying again, though some come with a 5xx ("API unknown", a missing
  // capability): permissions, policy blocks, a locked account, marketing limits, templates, media.
  ...codes('permanent', [1, 3, 10, 104, 368, 130472, 131005, 131031, 131042, 131048, 131049, 131050, 131052, 131053]),
  ...codes('permanent', [132000, 132001, 132012, 132015, 132016, 133010]),
  ...codes(
    'permanent',
    Array.from({ length: 100 }, (_, i) => 200 + i),
  ),
]);

/**
 * What a Graph error code means for us; also for the `failed` statuses that report the same codes
 * later, in a webhook. A code we do not list is `permanent` here (an answer with one and a 429 or
 * 5xx status is retried, see `classifyGraphError`).
 */
export function kindOfErrorCode(code: number | null): GraphErrorKind {
  return (code === null ? undefined : kindsByCode.get(code)) ?? 'permanent';
}

/**
 * The code agents see for a message the platform would not deliver, the same whether the send was
 * refused at once or a later `failed` status said so: the error's kind in words of our own
 * (`window_closed` for 131047, `recipient_unavailable`, `token_invalid`, `invalid_payload`), else
 * `platform_error_<code>`.
 */
export function deliveryProblemCode(code: number | null, kind: GraphErrorKind = kindOfErrorCode(code)): string {
  return kind === 'permanent' || kind === 'retryable' ? `platform_error_${code ?? 'unknown'}` : kind;
}

/**
 * The platform's own number and title of an error, which agents see beside our code (its
 * documentation is indexed by the number). A send's refusal words the title as its message with the
 * number in front ("(#131026) Message undeliverable."), a `failed` status gives it as `title`: the
 * number is taken off the words. None without a code (no answer, a proxy's page: nothing of the platform's).
 */
export function platformErrorOf(
  code: number | null,
  title: string | undefined,
): Pick<DeliveryProblem, 'platformCode' | 'platformTitle'> {
  if (code === null) return {};
  const words = title?.replace(/^\(#\d+\)\s*/, '').trim();
  return { platformCode: code, ...(words ? { platformTitle: words } : {}) };
}

export interface GraphApiErrorFields {
  /** The HTTP status; null when no answer came (network error, timeout). */
  status: number | null;
  /** `error.code`; null when the answer had none. */
  code: number | null;
  subcode?: number;
  /** `error.message`, e.g. "(#131047) Re-engagement message". */
  title: string;
  /** `error.error_data.details`: Meta's explanation for humans. */
  details?: string;
  /** Meta's trace id; quote it when asking Meta about a failure. */
  fbtraceId?: string;
  kind: GraphErrorKind;
}

/** A failed Graph API call. Carries nothing secret: the access token never reaches it. */
export class GraphApiError extends Error implements GraphApiErrorFields {
  override readonly name = 'GraphApiError';
  readonly status: number | null;
  readonly code: number | null;
  readonly subcode?: number;
  readonly title: string;
  readonly details?: string;
  readonly fbtraceId?: string;
  readonly kind: GraphErrorKind;

  constructor(fields: GraphApiErrorFields) {
    super(describe(fields));
    this.status = fields.status;
    this.code = fields.code;
    if (fields.subcode !== undefined) this.subcode = fields.subcode;
    this.title = fields.title;
    if (fields.details !== undefined) this.details = fields.details;
    if (fields.fbtraceId !== undefined) this.fbtraceId = fields.fbtraceId;
    this.kind = fields.kind;
  }

  get retryable(): boolean {
    return this.kind === 'retryable';
  }
}

/** The error for a non-2xx answer, from its status and its body (parsed JSON, or text when it was not JSON). */
export function classifyGraphError(status: number, body: unknown): GraphApiError {
  const error = isRecord(body) && isRecord(body.error) ? body.error : undefined;
  const code = integer(error?.code);
  const subcode = integer(error?.error_subcode);
  const details = isRecord(error?.error_data) ? error.error_data.details : undefined;
  const fields: GraphApiErrorFields = {
    status,
    code,
    title: typeof error?.message === 'string' ? error.message : `HTTP ${status} without a Graph error body`,
    kind: kindOfAnswer(status, code),
  };
  if (subcode !== null) fields.subcode = subcode;
  if (typeof details === 'string') fields.details = details;
  if (typeof error?.fbtrace_id === 'string') fields.fbtraceId = error.fbtrace_id;
  return new GraphApiError(fields);
}

/** A listed code decides; an unlisted one (or none) with a 429 or 5xx is worth another try later. */
function kindOfAnswer(status: number, code: number | null): GraphErrorKind {
  const listed = code === null ? undefined : kindsByCode.get(code);
  return listed ?? (status === 429 || status >= 500 ? 'retryable' : 'permanent');
}

/** No answer came: the request may or may not have reached the platform. */
export function unansweredGraphCall(reason: string): GraphApiError {
  return new GraphApiError({ status: null, code: null, title: reason, kind: 'retryable' });
}

function describe({ status, code, title, details, fbtraceId }: GraphApiErrorFields): string {
  const where = [status === null ? 'no answer' : `HTTP ${status}`, code === null ? undefined : `code ${code}`];
  const why = details ? `${title}: ${details}` : title;
  return `Graph API call failed (${where.filter(Boolean).join(', ')}): ${why}${fbtraceId ? ` [fbtrace_id ${fbtraceId}]` : ''}`;
}

function codes(kind: GraphErrorKind, list: number[]): Array<[number, GraphErrorKind]> {
  return list.map((code) => [code, kind]);
}

/** Graph sends codes as numbers; a numeric string is accepted too. */
function integer(value: unknown): number | null {
  const number = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  return typeof number === 'number' && Number.isInteger(number) ? number : null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
