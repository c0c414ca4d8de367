import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import pLimit from 'p-limit';
import { poll } from '#platform/poll.js';
import { readEventStream } from '#testing/chat.js';
import type { Random } from '#fuzz/hostile-requests.js';
import { patientFetch, patientJson } from '../patient-fetch.js';
import type { Problem, Progress } from '../progress.js';
import { checkConversation, type Exchange } from './transcript-checks.js';

export interface ChatsSetup {
  apiUrl: string;
  operatorKey: string;
  count: number;
  questionsEach: number;
  /** What visitors ask about (item titles). */
  topics: string[];
  random: Random;
  progress: Progress;
}

interface Visitor {
  conversationId: string;
  headers: Record<string, string>;
  exchanges: Array<Required<Exchange>>;
}

/**
 * Widget visitors: `count` conversations, each asking `questionsEach` questions one after another,
 * as the widget does: a message keeps its id (the API's idempotency key) however often it is sent
 * again, and an answer that did not come on the stream is looked for in the conversation. The check
 * reads each transcript through the chat API: every question kept once and answered once.
 */
export function chatsWorkload({ apiUrl, operatorKey, count, questionsEach, topics, random, progress }: ChatsSetup) {
  const visitors: Visitor[] = [];
  const base = { 'x-operator-key': operatorKey };

  async function start(): Promise<Visitor> {
    const body = await patientJson(`${apiUrl}/chat/conversations`, 'POST', base, {}, [201]);
    const visitor = {
      conversationId: body.conversationId,
      headers: { ...base, 'x-visitor-token': body.visitorToken },
      exchanges: [],
    };
    visitors.push(visitor);
    return visitor;
  }

  /** Sends until the message is taken in; true when its answer came on the stream. */
  async function send(visitor: Visitor, messageId: string, text: string): Promise<boolean> {
    for (;;) {
      const response = await fetch(`${apiUrl}/chat/conversations/${visitor.conversationId}/messages`, {
        method: 'POST',
        headers: { ...visitor.headers, 'content-type': 'application/json', accept: 'text/event-stream' },
        body: JSON.stringify({ messageId, text }),
        signal: AbortSignal.timeout(120_000),
      }).catch(() => undefined);
      if (response?.status === 200) {
        const events = await readEventStream(response, 0, (event) => event.event === 'done' || event.event === 'error');
        if (events.some((event) => event.event === 'done')) return true;
        if (events.some((event) => event.event === 'accepted')) return false;
      } else if (response && ![429, 502, 503, 504].includes(response.status)) {
        throw new Error(`a chat message answered ${response.status}: ${await response.text()}`);
      } else {
        await response?.body?.cancel();
      }
      await sleep(1_000);
    }
  }

  async function history(visitor: Visitor): Promise<any[]> {
    const answer = await patientFetch(`${apiUrl}/chat/conversations/${visitor.conversationId}/messages`, {
      headers: visitor.headers,
    });
    if (answer.status !== 200) throw new Error(`history answered ${answer.status}`);
    return answer.body.messages;
  }

  const answered = (messages: any[], messageId: string) =>
    messages.some((message) => message.author !== 'visitor' && message.replyTo === messageId);

  async function converse(c: number): Promise<void> {
    await sleep(random(0, 20_000));
    const visitor = await start();
    for (let q = 0; q < questionsEach; q++) {
      const exchange = {
        messageId: randomUUID(),
        text: `Visitor ${c}, question ${q}: tell me about ${topics[random(0, topics.length - 1)]}`,
      };
      visitor.exchanges.push(exchange);
      if (await send(visitor, exchange.messageId, exchange.text)) {
        progress.note();
        continue;
      }
      // Taken in, but the answer did not come on the stream: it will be in the conversation.
      const messages = await poll(
        () => history(visitor),
        (read) => answered(read, exchange.messageId),
        {
          timeoutMs: 10 * 60_000,
          intervalMs: 2_000,
        },
      );
      if (answered(messages, exchange.messageId)) progress.note();
    }
  }

  return {
    name: 'chats' as const,

    async run(): Promise<void> {
      await Promise.all(Array.from({ length: count }, (_, c) => converse(c)));
    },

    async settled(): Promise<boolean> {
      const reads = await Promise.all(visitors.map((visitor) => history(visitor).catch(() => [])));
      return visitors.every((visitor, v) => visitor.exchanges.every(({ messageId }) => answered(reads[v]!, messageId)));
    },

    async check(): Promise<Problem[]> {
      const inFlight = pLimit(8);
      const found = await Promise.all(
        visitors.map((visitor) =>
          inFlight(async () => checkConversation(visitor.conversationId, visitor.exchanges, await history(visitor))),
        ),
      );
      return found.flat().map((problem) => ({ workload: 'chats' as const, ...problem }));
    },

    figures() {
      return { conversations: visitors.length, questions: visitors.reduce((sum, visitor) => sum + visitor.exchanges.length, 0) };
    },
  };
}
