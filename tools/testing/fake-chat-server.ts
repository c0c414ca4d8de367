import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { acceptRequest, failCall, RequestScript, sendJson, startOpenAIServer, type RetryAfter } from './fake-openai-http.js';

/**
 * A stand-in for OpenAI's chat-completions API on 127.0.0.1, for tests that need real HTTP: same
 * route, status codes, error bodies and server-sent events as the real service, with the reply and
 * any failures scripted per request. A reply is sent in word-sized tokens, punctuation on its own
 * (`NO_ANSWER` goes out as `NO`, `_`, `ANSWER`; `[1]` as `[`, `1`, `]`), as a real model's would.
 */
export interface FakeChatServer {
  /** Ends in /v1, as the SDK's baseURL does. */
  baseUrl: string;
  /** Every request that reached POST /v1/chat/completions with the right key, in order, failed ones included. */
  calls: FakeChatCall[];
  /** From now on, every reply is `reply` (or what it returns for the request). */
  respondWith(reply: string | ((request: FakeChatRequest) => string)): void;
  /** The next `count` authorised requests fail with `status` (429, 500 and 503 get OpenAI's bodies). */
  failNext(count: number, status: number, options?: RetryAfter): void;
  /** The next `count` streamed replies send their first few tokens, then the connection is cut. */
  failMidStreamNext(count: number): void;
  /** The next `count` streamed replies send their first few tokens, then go quiet for `ms` before the rest. */
  stallMidStreamNext(count: number, ms: number): void;
  /** The next streamed reply sends its first few tokens, then waits until `release()` is called. */
  holdMidStreamNext(): () => void;
  /** The next `count` requests are answered only after `ms`, to make clients time out. */
  delayNext(count: number, ms: number): void;
  close(): Promise<void>;
}

/** What a reply function is told about the request it answers. */
export interface FakeChatRequest {
  model: string;
  messages: FakeChatMessage[];
  stream: boolean;
  temperature: number | undefined;
  /** `max_tokens` as sent. */
  maxTokens: number | undefined;
}

export interface FakeChatMessage {
  role: string;
  content: string;
}

export interface FakeChatCall extends FakeChatRequest {
  /** The HTTP status sent; 200 also for a stream that was cut or stalled mid-way. */
  status: number;
}

/** The reply until `respondWith` says otherwise. */
export const defaultFakeReply = 'You can reset your password from the sign-in page [1].';

/** How many tokens a cut or stalled stream sends first. */
export const tokensBeforeInterruption = 3;

type Interruption = { kind: 'cut' } | { kind: 'stall'; ms: number } | { kind: 'hold'; released: Promise<void> };

/** Starts the fake on a free port; requests must carry `Authorization: Bearer <apiKey>`. */
export async function startFakeChatServer(options: { apiKey: string }): Promise<FakeChatServer> {
  const calls: FakeChatCall[] = [];
  const script = new RequestScript();
  const interruptions: Interruption[] = [];
  let reply: string | ((request: FakeChatRequest) => string) = defaultFakeReply;

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const accepted = await acceptRequest(request, response, { route: 'chat/completions', apiKey: options.apiKey, script });
    if (!accepted) return;
    const { params } = accepted;
    const call: FakeChatCall = {
      model: typeof params.model === 'string' ? params.model : '',
      messages: Array.isArray(params.messages) ? params.messages.map(toMessage) : [],
      stream: params.stream === true,
      temperature: typeof params.temperature === 'number' ? params.temperature : undefined,
      maxTokens: typeof params.max_tokens === 'number' ? params.max_tokens : undefined,
      status: 200,
    };
    calls.push(call);
    const fail = failCall(response, call);

    const rateLimit = `Rate limit reached for ${call.model} in organization org-fake on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 20s.`;
    const overloaded = 'The engine is currently overloaded, please try again later';
    if (script.sendNextFailure(response, fail, { rateLimit, overloaded })) return;

    if (call.model === '') {
      return fail({ status: 400, message: 'you must provide a model parameter', type: 'invalid_request_error' });
    }
    if (params.messages === undefined) {
      return fail({
        status: 400,
        message: "Missing required parameter: 'messages'.",
        type: 'invalid_request_error',
        code: 'missing_required_parameter',
        param: 'messages',
      });
    }
    if (!Array.isArray(params.messages) || params.messages.length === 0) {
      return fail({
        status: 400,
        message: "Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.",
        type: 'invalid_request_error',
        code: 'empty_array',
        param: 'messages',
      });
    }

    const text = typeof reply === 'function' ? reply(call) : reply;
    const completion = {
      id: `chatcmpl-${randomBytes(12).toString('hex')}`,
      created: Math.floor(Date.now() / 1000),
      model: call.model,
    };
    const usage = usageFor(call.messages, text);
    if (!call.stream) {
      return sendJson(response, 200, {
        ...completion,
        object: 'chat.completion',
        choices: [
          { index: 0, message: { role: 'assistant', content: text, refusal: null }, logprobs: null, finish_reason: 'stop' },
        ],
        usage,
        system_fingerprint: null,
      });
    }
    const includeUsage = (params.stream_options as { include_usage?: unknown } | undefined)?.include_usage === true;
    await streamReply(response, completion, tokenize(text), interruptions.shift(), includeUsage ? usage : undefined);
  }

  const server = await startOpenAIServer(handle);
  return {
    ...server,
    calls,
    respondWith(next) {
      reply = next;
    },
    failNext: (count, status, retryAfter) => script.failNext(count, status, retryAfter),
    failMidStreamNext(count) {
      for (let i = 0; i < count; i++) interruptions.push({ kind: 'cut' });
    },
    stallMidStreamNext(count, ms) {
      for (let i = 0; i < count; i++) interruptions.push({ kind: 'stall', ms });
    },
    holdMidStreamNext() {
      let release!: () => void;
      interruptions.push({ kind: 'hold', released: new Promise<void>((resolve) => (release = resolve)) });
      return release;
    },
    delayNext: (count, ms) => script.delayNext(count, ms),
  };
}

interface CompletionIdentity {
  id: string;
  created: number;
  model: string;
}

/**
 * Server-sent events as OpenAI sends them: a chunk with the role, one per token, one with the
 * finish reason, the usage chunk when asked for, then `[DONE]`.
 */
async function streamReply(
  response: ServerResponse,
  completion: CompletionIdentity,
  tokens: string[],
  interruption: Interruption | undefined,
  usage: object | undefined,
): Promise<void> {
  response.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
  const chunk = (delta: object, finishReason: string | null) => ({
    ...completion,
    object: 'chat.completion.chunk',
    system_fingerprint: null,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
  });
  const send = (data: unknown) =>
    new Promise<void>((resolve) =>
      response.write(`data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`, () => resolve()),
    );

  await send(chunk({ role: 'assistant', content: '', refusal: null }, null));
  for (const [index, token] of tokens.entries()) {
    if (response.destroyed) return;
    if (index === tokensBeforeInterruption && interruption) {
      // Long enough for the client to have read what was sent before.
      if (interruption.kind === 'hold') await interruption.released;
      else await sleep(interruption.kind === 'stall' ? interruption.ms : 20);
      if (interruption.kind === 'cut') {
        response.socket?.destroy();
        return;
      }
      if (response.destroyed) return;
    }
    await send(chunk({ content: token }, null));
  }
  await send(chunk({}, 'stop'));
  if (usage) await send({ ...completion, object: 'chat.completion.chunk', system_fingerprint: null, choices: [], usage });
  await send('[DONE]');
  response.end();
}

/** Words with the whitespace before them, and each punctuation mark on its own. */
export function tokenize(text: string): string[] {
  return text.match(/\s*[\p{L}\p{N}]+|\s*[^\s\p{L}\p{N}]|\s+/gu) ?? [];
}

function toMessage(message: unknown): FakeChatMessage {
  const { role, content } = (message ?? {}) as { role?: unknown; content?: unknown };
  return { role: String(role), content: typeof content === 'string' ? content : JSON.stringify(content) };
}

/** Rough counts, a token being about four characters. */
function usageFor(messages: FakeChatMessage[], reply: string) {
  const prompt = messages.reduce((sum, message) => sum + Math.ceil(message.content.length / 4), 0);
  const completion = Math.ceil(reply.length / 4);
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}
