import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { TestApi } from './api.js';
import { importingTenant, item, waitForJobs } from './ingestion.js';

/** For files that poll a conversation often: the per-visitor budgets stay out of the way, and a loaded machine may answer slowly. */
export const chattyVisitors = {
  CHAT_VISITOR_PER_MINUTE: '100000',
  CHAT_CONVERSATIONS_PER_HOUR: '100000',
  CHAT_ADDRESS_PER_MINUTE: '100000',
  CHAT_ANSWERS_PER_ADDRESS_PER_DAY: '100000',
  CHAT_REPLY_TIMEOUT_SECONDS: '30',
};

export interface StreamedEvent {
  event: string;
  id: string | null;
  data: any;
  /** Milliseconds since the request was sent. */
  atMs: number;
}

/** Reads a server-sent-events response to its end (or until `until` says stop), each event timed. */
export async function readEventStream(
  response: Response,
  sentAt: number,
  until: (event: StreamedEvent) => boolean = () => false,
): Promise<StreamedEvent[]> {
  const events: StreamedEvent[] = [];
  let stop = false;
  const parser = createParser({
    onEvent(message: EventSourceMessage) {
      const event = {
        event: message.event ?? 'message',
        id: message.id ?? null,
        data: JSON.parse(message.data),
        atMs: performance.now() - sentAt,
      };
      events.push(event);
      if (until(event)) stop = true;
    },
  });
  const decoder = new TextDecoder();
  const reader = response.body!.getReader();
  while (!stop) {
    // A stream cut by the server (it stopped) ends the reading like a normal end.
    const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
    if (done) break;
    parser.feed(decoder.decode(value, { stream: true }));
  }
  await reader.cancel().catch(() => undefined);
  return events;
}

export interface ChatVisitor {
  conversationId: string;
  visitorToken: string;
  headers: Record<string, string>;
}

/** A client of the public chat API, as the widget uses it. */
export function chatClient(baseUrl: string, operatorKey: string, origin?: string) {
  const base = { 'x-operator-key': operatorKey, ...(origin ? { origin } : {}) };
  return {
    async start(body: Record<string, unknown> = {}): Promise<ChatVisitor & { body: any }> {
      const response = await fetch(`${baseUrl}/chat/conversations`, {
        method: 'POST',
        headers: { ...base, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const json = (await response.json()) as any;
      if (response.status !== 201) throw new Error(`start answered ${response.status}: ${JSON.stringify(json)}`);
      return {
        conversationId: json.conversationId,
        visitorToken: json.visitorToken,
        headers: { ...base, 'x-visitor-token': json.visitorToken },
        body: json,
      };
    },

    /** Sends a message and reads its answer stream to the end. */
    async ask(visitor: ChatVisitor, text: string, extra: Record<string, unknown> = {}) {
      const sentAt = performance.now();
      const response = await fetch(`${baseUrl}/chat/conversations/${visitor.conversationId}/messages`, {
        method: 'POST',
        headers: { ...visitor.headers, 'content-type': 'application/json', accept: 'text/event-stream' },
        body: JSON.stringify({ text, ...extra }),
      });
      if (response.status !== 200) return { status: response.status, body: await response.json(), events: [] as StreamedEvent[] };
      const events = await readEventStream(response, sentAt);
      const done = events.find((event) => event.event === 'done');
      return { status: 200, events, done: done?.data, reply: done?.data?.message, body: undefined };
    },

    async history(visitor: ChatVisitor) {
      const response = await fetch(`${baseUrl}/chat/conversations/${visitor.conversationId}/messages`, {
        headers: visitor.headers,
      });
      return { status: response.status, body: (await response.json()) as any };
    },

    /** Opens the conversation's event stream; read it with `readEventStream`. */
    follow(visitor: ChatVisitor, lastEventId?: string) {
      return fetch(`${baseUrl}/chat/conversations/${visitor.conversationId}/events`, {
        headers: { ...visitor.headers, accept: 'text/event-stream', ...(lastEventId ? { 'last-event-id': lastEventId } : {}) },
      });
    },
  };
}

/** A tenant that imports content, with an operator on its default knowledge base. */
export async function chattingTenant(api: TestApi, operatorFields: Record<string, unknown> = {}) {
  const tenant = await importingTenant(api);
  const operator = (
    await api.admin('POST', `/admin/tenants/${tenant.tenant.id}/operators`, { name: 'Northwind', ...operatorFields })
  ).body;
  return { ...tenant, operator, chat: chatClient(api.url, operator.operatorKey as string) };
}

/**
 * How long a test's agent actions wait for the conversation's workflow: far longer than the
 * service's 15 s, as a loaded test machine can take seconds per workflow task. Tests of the
 * deadline itself set theirs through the API's configuration.
 */
export const testActionWait = { actionWaitMs: 60_000 };

/**
 * A chatting tenant whose knowledge base holds one returns policy (so "How long do I have to return an
 * item?" is answered), a visitor's conversation started on its widget, and that conversation's ref as
 * the workflow client takes it.
 */
export async function conversationAboutReturns(api: TestApi) {
  const tenant = await chattingTenant(api);
  const response = await api.request('POST', '/ingest/bulk', {
    headers: tenant.headers,
    body: {
      items: [
        item('returns', {
          title: 'Returns policy',
          content: 'You can return any unused item within 30 days of delivery for a full refund.',
          url: 'https://shop.example/help/returns',
        }),
      ],
    },
  });
  await waitForJobs(api, tenant.headers, response.body.jobIds);
  const visitor = await tenant.chat.start();
  const ref = {
    conversationId: visitor.conversationId,
    tenantId: tenant.tenant.id as string,
    operatorId: tenant.operator.id as string,
    knowledgeBaseId: tenant.kb,
    channel: 'widget' as const,
    locale: 'en' as const,
  };
  return { ...tenant, visitor, ref };
}
