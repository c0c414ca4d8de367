import pLimit from 'p-limit';
import { smallBodyLimitBytes as smallestBodyLimitBytes } from '#api/openapi/documented-router.js';
import { createResponseChecker } from '#testing/response-conformance.js';
import { hostileRequests, seededRandom, type HostileRequest, type KnownValues } from './hostile-requests.js';

/*
 * A fuzzing campaign against a running API: `count` hostile requests, `concurrency` at a time, each
 * answer classified. What counts as a failure: any 5xx, a request still unanswered after the
 * deadline (event streams excepted: they are meant to stay open, so only their headers are
 * awaited), and an answer unlike the API's own documentation, except that a refusal in the one error
 * shape with a status its operation does not list (a 415 from the body parser, a 431 from Node's
 * header limit) is counted apart, and OPTIONS gets its `Allow` answer on any route.
 */

export interface CampaignResult {
  sent: number;
  byStatus: Record<string, number>;
  failures: Array<{ index: number; request: Summary; problem: string }>;
  /** Refusals in the error shape whose status the operation does not document: `POST /ingest 415`. */
  undocumented: Record<string, number>;
  /**
   * Requests with a body over the smallest route limit whose connection ended while the client was
   * still sending: the API answered (a refusal) before reading the body, and the client (undici's
   * fetch) did not read that answer. Not a failure: the refusal is the point.
   */
  cutOffWhileSending: number;
  seconds: number;
}

type Summary = Pick<HostileRequest, 'method' | 'path' | 'operation'> & { bodyBytes: number };

export async function runCampaign(options: {
  apiUrl: string;
  known: KnownValues;
  seed: number;
  count: number;
  concurrency?: number;
  deadlineMs?: number;
}): Promise<CampaignResult> {
  const { apiUrl, known, seed, count, concurrency = 8, deadlineMs = 15_000 } = options;
  const document = await (await fetch(`${apiUrl}/openapi.json`)).json();
  const problemOf = createResponseChecker(document);
  const next = hostileRequests(document, known, seededRandom(seed));
  const requests = Array.from({ length: count }, next);

  const byStatus: Record<string, number> = {};
  const failures: CampaignResult['failures'] = [];
  const undocumented: Record<string, number> = {};
  let cutOffWhileSending = 0;
  const started = performance.now();
  const limit = pLimit(concurrency);
  await Promise.all(
    requests.map((request, index) =>
      limit(async () => {
        const outcome = await send(apiUrl, request, deadlineMs);
        byStatus[outcome.status] = (byStatus[outcome.status] ?? 0) + 1;
        const problem =
          typeof outcome.status !== 'number'
            ? `${outcome.status}${outcome.text ? `: ${outcome.text}` : ''}`
            : outcome.status >= 500
              ? `answered ${outcome.status}: ${outcome.text.slice(0, 300)}`
              : problemOf({
                  method: request.method,
                  path: request.path,
                  status: outcome.status,
                  contentType: outcome.contentType,
                  body: outcome.body,
                });
        if (!problem) return;
        if (outcome.status === 'request failed' && Buffer.byteLength(request.body ?? '') > smallestBodyLimitBytes) {
          cutOffWhileSending++;
          return;
        }
        if (typeof outcome.status === 'number' && outcome.status < 500 && isRefusal(outcome)) {
          const key = `${request.operation} ${outcome.status}`;
          undocumented[key] = (undocumented[key] ?? 0) + 1;
        } else if (!(request.method === 'OPTIONS' && outcome.status === 200)) {
          failures.push({ index, request: summary(request), problem });
        }
      }),
    ),
  );
  return {
    sent: requests.length,
    byStatus,
    failures,
    undocumented,
    cutOffWhileSending,
    seconds: (performance.now() - started) / 1000,
  };
}

/** A 4xx in the one error shape: `{"error": {"code", "message"}}`. */
function isRefusal(outcome: Outcome): boolean {
  const error = (outcome.body as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
  return Number(outcome.status) >= 400 && typeof error?.code === 'string' && typeof error.message === 'string';
}

interface Outcome {
  status: number | string;
  contentType: string | null;
  body?: unknown;
  text: string;
}

async function send(apiUrl: string, request: HostileRequest, deadlineMs: number): Promise<Outcome> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), deadlineMs);
  try {
    const response = await fetch(apiUrl + request.path, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      signal: controller.signal,
    });
    const contentType = response.headers.get('content-type');
    if (contentType?.startsWith('text/event-stream')) {
      controller.abort();
      return { status: response.status, contentType, text: '' };
    }
    const text = await response.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: the checker judges the text
    }
    return { status: response.status, contentType, body, text };
  } catch (error) {
    if (controller.signal.aborted) return { status: `no answer within ${deadlineMs} ms`, contentType: null, text: '' };
    const cause = (error as Error & { cause?: Error }).cause;
    return { status: 'request failed', contentType: null, text: cause?.message ?? (error as Error).message };
  } finally {
    clearTimeout(timer);
  }
}

function summary(request: HostileRequest): Summary {
  return {
    method: request.method,
    path: request.path.length > 200 ? `${request.path.slice(0, 200)}…` : request.path,
    operation: request.operation,
    bodyBytes: Buffer.byteLength(request.body ?? ''),
  };
}
