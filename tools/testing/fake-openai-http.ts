/**
 * The parts of OpenAI's HTTP protocol that every fake OpenAI API here shares: starting on a free
 * port (on the scaffold every fake shares, `http-fake.ts`), the checks a request passes before its
 * route sees it (route, API key, JSON body), OpenAI's error bodies, and the failures and delays a
 * test scripts for the next requests.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { readBody, startHttpFake } from './http-fake.js';

/** Retry-After headers a scripted failure sends with its error. */
export interface RetryAfter {
  retryAfterSeconds?: number;
  retryAfterMs?: number;
}

interface ScriptedFailure extends RetryAfter {
  status: number;
}

/** An error as OpenAI sends it: `{ error: { message, type, param, code } }` with the status. */
export interface OpenAIError {
  status: number;
  message: string;
  type: string;
  code?: string | null;
  param?: string | null;
}

/** OpenAI's wording for the scripted failures that have their own: a 429, and (optionally) a 503. */
export interface FailureWording {
  rateLimit: string;
  overloaded?: string;
}

/** Failures and delays scripted for the next requests, used up one per request. */
export class RequestScript {
  private readonly failures: ScriptedFailure[] = [];
  private readonly delays: number[] = [];

  /** The next `count` authorised requests fail with `status`. */
  failNext(count: number, status: number, { retryAfterSeconds, retryAfterMs }: RetryAfter = {}): void {
    for (let i = 0; i < count; i++) this.failures.push({ status, retryAfterSeconds, retryAfterMs });
  }

  /** The next `count` requests are answered only after `ms`. */
  delayNext(count: number, ms: number): void {
    for (let i = 0; i < count; i++) this.delays.push(ms);
  }

  /**
   * Sends the next scripted failure, if there is one, as OpenAI would: Retry-After headers, then
   * its error body (through `fail`, so that the call records its status). Says whether it did.
   */
  sendNextFailure(response: ServerResponse, fail: (error: OpenAIError) => void, wording: FailureWording): boolean {
    const failure = this.failures.shift();
    if (!failure) return false;
    if (failure.retryAfterSeconds !== undefined) response.setHeader('retry-after', String(failure.retryAfterSeconds));
    if (failure.retryAfterMs !== undefined) response.setHeader('retry-after-ms', String(failure.retryAfterMs));
    fail(scriptedError(failure.status, wording));
    return true;
  }

  /** Waits out the next scripted delay, if there is one. */
  async delay(): Promise<void> {
    const delay = this.delays.shift();
    if (delay !== undefined) await sleep(delay);
  }
}

function scriptedError(status: number, wording: FailureWording): OpenAIError {
  if (status === 429) {
    return { status, message: wording.rateLimit, type: 'requests', code: 'rate_limit_exceeded' };
  }
  if (status === 503 && wording.overloaded !== undefined) {
    return { status, message: wording.overloaded, type: 'server_error' };
  }
  if (status >= 500) {
    return { status, message: 'The server had an error while processing your request. Sorry about that!', type: 'server_error' };
  }
  return { status, message: `Scripted failure with status ${status}.`, type: 'invalid_request_error' };
}

/**
 * Reads a request and checks it as OpenAI does, after any scripted delay: the route (`POST
 * /v1/<route>`), the API key, then the JSON body. Returns the parsed body (as sent: JSON that is
 * not an object fails later, as a 500); undefined when the request was refused with OpenAI's
 * error, or the client left during the delay.
 */
export async function acceptRequest(
  request: IncomingMessage,
  response: ServerResponse,
  { route, apiKey, script }: { route: string; apiKey: string; script: RequestScript },
): Promise<{ params: Record<string, unknown> } | undefined> {
  const body = await readBody(request);
  await script.delay();
  if (response.destroyed) return undefined;

  const path = new URL(request.url ?? '/', 'http://fake').pathname;
  if (request.method !== 'POST' || path !== `/v1/${route}`) {
    sendError(response, { status: 404, message: `Invalid URL (${request.method} ${path})`, type: 'invalid_request_error' });
    return undefined;
  }
  const bearer = /^Bearer (.*)$/.exec(request.headers.authorization ?? '')?.[1];
  if (bearer !== apiKey) {
    const message = bearer
      ? `Incorrect API key provided: ${maskKey(bearer)}. You can find your API key at https://platform.openai.com/account/api-keys.`
      : "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).";
    sendError(response, { status: 401, message, type: 'invalid_request_error', code: bearer ? 'invalid_api_key' : null });
    return undefined;
  }
  try {
    return { params: JSON.parse(body) };
  } catch {
    sendError(response, {
      status: 400,
      message: 'We could not parse the JSON body of your request.',
      type: 'invalid_request_error',
    });
    return undefined;
  }
}

/** Sends `error` and records its status on the call it fails. */
export function failCall(response: ServerResponse, call: { status: number }): (error: OpenAIError) => void {
  return (error) => {
    call.status = error.status;
    sendError(response, error);
  };
}

/** Serves `handle` on 127.0.0.1 at a free port, an error it throws answered as OpenAI's 500 (or the connection cut, once the reply has started). */
export async function startOpenAIServer(
  handle: (request: IncomingMessage, response: ServerResponse) => Promise<void>,
): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const server = await startHttpFake((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) sendError(response, { status: 500, message: String(error), type: 'server_error' });
      else response.destroy();
    });
  });
  return { baseUrl: `${server.url}/v1`, close: server.close };
}

export function sendError(response: ServerResponse, { status, message, type, code = null, param = null }: OpenAIError): void {
  sendJson(response, status, { error: { message, type, param, code } });
}

export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

/** As OpenAI quotes a wrong key: a few characters at each end. */
function maskKey(key: string): string {
  return key.length > 8 ? `${key.slice(0, 3)}${'*'.repeat(12)}${key.slice(-4)}` : '*'.repeat(key.length);
}
