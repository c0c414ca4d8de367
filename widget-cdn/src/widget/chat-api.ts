import type {
  Contact,
  ConversationHistory,
  ConversationKeys,
  ConversationStatus,
  EarlierConversation,
  Rating,
  StartedConversation,
  VerifiedVisitor,
  WidgetConfig,
} from './chat-types.js';
import { readServerEvents, type ServerEvent } from './server-events.js';

/**
 * A failed request to the chat API: the HTTP status and the error body's code, or status 0 and
 * `network_error` when no answer came at all.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** From a 429's Retry-After header. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

export function isAbort(error: unknown): boolean {
  return (error as Error | null)?.name === 'AbortError';
}

export interface ChatApiOptions {
  apiUrl: string;
  operatorKey: string;
  fetch: typeof fetch;
  /** Aborts every request (the widget's lifetime). */
  signal: AbortSignal;
}

/** The chat API, one method per route. Event-stream routes call `onEvent` and resolve when the stream ends. */
export interface ChatApi {
  config(locale: string): Promise<WidgetConfig>;
  /** A verified visitor's session, when given, vouches for them instead of an identity token. */
  start(input: { contact?: Contact; locale: string; identityToken?: string }, session?: string): Promise<StartedConversation>;
  identify(identityToken: string): Promise<VerifiedVisitor>;
  /** The verified visitor's conversations again, for their session. */
  conversations(session: string): Promise<{ conversations: EarlierConversation[] }>;
  history(keys: ConversationKeys): Promise<ConversationHistory>;
  send(
    keys: ConversationKeys,
    message: { text: string; messageId: string },
    onEvent: (event: ServerEvent) => void,
  ): Promise<void>;
  handoff(keys: ConversationKeys): Promise<{ status: ConversationStatus }>;
  /** Rates an AI answer; a later rating replaces it. */
  rate(keys: ConversationKeys, messageId: string, rating: Rating, reason?: string): Promise<unknown>;
  /** The visitor's 1–5 score of a conversation an agent closed. */
  satisfaction(keys: ConversationKeys, score: number): Promise<unknown>;
  follow(
    keys: ConversationKeys,
    lastEventId: string | undefined,
    onEvent: (event: ServerEvent) => void,
    signal: AbortSignal,
  ): Promise<void>;
}

interface Call {
  method?: 'GET' | 'POST' | 'PUT';
  body?: unknown;
  keys?: ConversationKeys;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export function createChatApi({ apiUrl, operatorKey, fetch, signal }: ChatApiOptions): ChatApi {
  async function call(
    path: string,
    { method = 'GET', body, keys, headers, signal: callSignal = signal }: Call,
  ): Promise<Response> {
    const sent: Record<string, string> = { 'x-operator-key': operatorKey, ...headers };
    if (keys) sent['x-visitor-token'] = keys.visitorToken;
    if (body !== undefined) sent['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await fetch(apiUrl + path, {
        method,
        headers: sent,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: callSignal,
        credentials: 'omit',
        cache: 'no-store',
      });
    } catch (error) {
      if (isAbort(error)) throw error;
      throw new ApiError(0, 'network_error', `The chat service at ${apiUrl} could not be reached.`);
    }
    if (!response.ok) throw await errorOf(response);
    return response;
  }

  const json = async <T>(path: string, options: Call = {}) => (await call(path, options)).json() as Promise<T>;
  const conversation = (keys: ConversationKeys, rest = '') =>
    `/chat/conversations/${encodeURIComponent(keys.conversationId)}${rest}`;

  return {
    config: (locale) => json(`/chat/config?locale=${encodeURIComponent(locale)}`),
    start: (input, session) =>
      json('/chat/conversations', { method: 'POST', body: input, headers: session ? { 'x-visitor-token': session } : {} }),
    identify: (identityToken) => json('/chat/identity', { method: 'POST', body: { identityToken } }),
    conversations: (session) => json('/chat/identity/conversations', { headers: { 'x-visitor-token': session } }),
    history: (keys) => json(conversation(keys, '/messages'), { keys }),
    async send(keys, message, onEvent) {
      await readServerEvents(await call(conversation(keys, '/messages'), { method: 'POST', body: message, keys }), onEvent);
    },
    handoff: (keys) => json(conversation(keys, '/handoff'), { method: 'POST', keys }),
    rate: (keys, messageId, rating, reason) =>
      json(conversation(keys, `/messages/${encodeURIComponent(messageId)}/feedback`), {
        method: 'PUT',
        body: reason ? { rating, reason } : { rating },
        keys,
      }),
    satisfaction: (keys, score) => json(conversation(keys, '/satisfaction'), { method: 'PUT', body: { score }, keys }),
    async follow(keys, lastEventId, onEvent, followSignal) {
      const headers: Record<string, string> = lastEventId ? { 'last-event-id': lastEventId } : {};
      await readServerEvents(await call(conversation(keys, '/events'), { keys, headers, signal: followSignal }), onEvent);
    },
  };
}

const codesByStatus: Record<number, string> = {
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  409: 'conversation_closed',
  429: 'rate_limited',
  503: 'unavailable',
};

/** The error body `{error: {code, message}}`, or what the status alone says when the body is not that. */
async function errorOf(response: Response): Promise<ApiError> {
  const body = (await response.json().catch(() => null)) as { error?: { code?: unknown; message?: unknown } } | null;
  const code = typeof body?.error?.code === 'string' ? body.error.code : (codesByStatus[response.status] ?? 'http_error');
  const message = typeof body?.error?.message === 'string' ? body.error.message : `The chat service answered ${response.status}.`;
  const retryAfter = Number(response.headers.get('retry-after'));
  return new ApiError(response.status, code, message, retryAfter > 0 ? retryAfter * 1000 : undefined);
}
