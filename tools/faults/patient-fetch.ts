import { setTimeout as sleep } from 'node:timers/promises';

/** What a client of a hosted API does with these: waits and sends the same request again. */
const passingStatuses = new Set([429, 502, 503, 504]);

export interface PatientAnswer {
  status: number;
  body: any;
  /** How many times the request was sent before this answer. */
  attempts: number;
}

/**
 * Sends a request until the service answers it with something other than "not now" (a refused
 * connection, a cut answer, 429, 502, 503 or 504), as a well-behaved client does during an outage:
 * the request must be safe to repeat (an idempotency key, a job id, a platform message id), which
 * is exactly what the campaign relies on. Gives up after `giveUpMs`, throwing what it last saw.
 */
export async function patientFetch(
  url: string,
  init: RequestInit = {},
  { giveUpMs = 10 * 60_000, waitMs = 500, timeoutMs = 30_000 } = {},
): Promise<PatientAnswer> {
  const deadline = Date.now() + giveUpMs;
  let lastProblem = '';
  for (let attempts = 1; ; attempts++) {
    try {
      const response = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
      const text = await response.text();
      if (!passingStatuses.has(response.status)) return { status: response.status, body: parse(text), attempts };
      lastProblem = `${response.status} ${text.slice(0, 200)}`;
    } catch (error) {
      lastProblem = (error as Error).message;
    }
    if (Date.now() > deadline) throw new Error(`${init.method ?? 'GET'} ${url} did not get through: ${lastProblem}`);
    await sleep(Math.min(waitMs * attempts, 5_000));
  }
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** `patientFetch` of a JSON request, failing on any answer but `expected`. */
export async function patientJson(
  url: string,
  method: string,
  headers: Record<string, string>,
  body: unknown,
  expected: number[] = [200],
  patience?: Parameters<typeof patientFetch>[2],
): Promise<any> {
  const answer = await patientFetch(
    url,
    {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    },
    patience,
  );
  if (!expected.includes(answer.status)) {
    throw new Error(`${method} ${new URL(url).pathname} answered ${answer.status}: ${JSON.stringify(answer.body).slice(0, 300)}`);
  }
  return answer.body;
}
