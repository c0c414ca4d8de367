import { setTimeout as sleep } from 'node:timers/promises';
import pLimit from 'p-limit';
import { poll } from '#platform/poll.js';
import { deliver, inboundText, type FakeMessagingPlatform } from '#testing/fake-messaging-platform.js';
import type { Random } from '#fuzz/hostile-requests.js';
import { patientJson } from '../patient-fetch.js';
import type { Problem, Progress } from '../progress.js';
import { checkConversation, checkDeliveries, type Exchange } from './transcript-checks.js';

export interface MessagingSetup {
  apiUrl: string;
  /** An admin user's headers: the check reads transcripts through the agent API. */
  userHeaders: Record<string, string>;
  webhookUrl: string;
  appSecret: string;
  phoneNumberId: string;
  platform: FakeMessagingPlatform;
  count: number;
  questionsEach: number;
  topics: string[];
  runTag: string;
  random: Random;
  progress: Progress;
}

interface Customer {
  waId: string;
  name: string;
  exchanges: Exchange[];
}

/**
 * Messaging customers: `count` numbers each writing `questionsEach` questions, the next once the
 * answer arrived (or after five minutes). A delivery the webhook did not take (any answer but 200,
 * or none) is delivered again with the same message id, as the platform does. The check compares,
 * per customer, the transcripts (agent API) with what the fake platform received.
 */
export function messagingWorkload(setup: MessagingSetup) {
  const { apiUrl, platform, phoneNumberId, random, progress } = setup;
  const customers: Customer[] = Array.from({ length: setup.count }, (_, c) => ({
    waId: `49${String(1_000_000_000 + c * 7919 + random(0, 7_000))}`,
    name: `Customer ${setup.runTag} ${c}`,
    exchanges: [],
  }));

  const receivedBy = (customer: Customer) =>
    platform.sent
      .filter((sent) => sent.phoneNumberId === phoneNumberId && sent.body.to === customer.waId)
      .map((sent) => textOf(sent.body));

  async function deliverUntilTaken(body: object): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const status = await deliver(setup.webhookUrl, body, { appSecret: setup.appSecret }).then(
        (answer) => answer.status,
        () => 0,
      );
      if (status === 200) return;
      if (status !== 0 && status < 500 && status !== 429) throw new Error(`the webhook refused a delivery with ${status}`);
      await sleep(Math.min(500 * attempt, 5_000));
    }
  }

  async function write(customer: Customer, c: number): Promise<void> {
    await sleep(random(0, 20_000));
    for (let q = 0; q < setup.questionsEach; q++) {
      const text = `Customer ${c}, question ${q}: what about ${setup.topics[random(0, setup.topics.length - 1)]}?`;
      customer.exchanges.push({ text });
      const before = receivedBy(customer).length;
      await deliverUntilTaken(inboundText({ text, phoneNumberId, from: customer.waId, name: customer.name }));
      const after = await poll(
        () => receivedBy(customer).length,
        (count) => count > before,
        {
          timeoutMs: 5 * 60_000,
          intervalMs: 500,
        },
      );
      if (after > before) progress.note();
    }
  }

  async function transcriptsOf(): Promise<Map<string, any[]>> {
    const url = `${apiUrl}/agent/conversations?status=all&channel=messaging&limit=200`;
    const { conversations } = await patientJson(url, 'GET', setup.userHeaders, undefined);
    const byName = new Map<string, any[]>();
    const inFlight = pLimit(8);
    await Promise.all(
      conversations.map((summary: any) =>
        inFlight(async () => {
          const read = `${apiUrl}/agent/conversations/${summary.conversationId}`;
          const { messages } = await patientJson(read, 'GET', setup.userHeaders, undefined);
          const name = summary.contact?.name ?? '';
          byName.set(name, [...(byName.get(name) ?? []), ...messages]);
        }),
      ),
    );
    return byName;
  }

  return {
    name: 'messaging' as const,

    async run(): Promise<void> {
      await Promise.all(customers.map((customer, c) => write(customer, c)));
    },

    async settled(): Promise<boolean> {
      const transcripts = await transcriptsOf().catch(() => undefined);
      if (!transcripts) return false;
      return customers.every((customer) => {
        const messages = transcripts.get(customer.name) ?? [];
        const outgoing = messages.filter((message) => message.author !== 'visitor');
        const answeredAll = customer.exchanges.every(({ text }) => {
          const question = messages.find((message) => message.author === 'visitor' && message.text === text);
          return question && outgoing.some((message) => message.replyTo === question.id);
        });
        return answeredAll && receivedBy(customer).length >= outgoing.length;
      });
    },

    async check(): Promise<Problem[]> {
      const transcripts = await transcriptsOf();
      return customers.flatMap((customer) => {
        const messages = transcripts.get(customer.name) ?? [];
        const outgoing = messages.filter((message) => message.author !== 'visitor').map((message) => message.text);
        return [
          ...checkConversation(customer.name, customer.exchanges, messages),
          ...checkDeliveries(customer.name, outgoing, receivedBy(customer)),
        ].map((problem) => ({ workload: 'messaging' as const, ...problem }));
      });
    },

    figures() {
      return {
        customers: customers.length,
        'messages received by the platform': customers.reduce((sum, customer) => sum + receivedBy(customer).length, 0),
      };
    },
  };
}

/** The text a customer sees of one sent payload: a text message's body, or an interactive message's. */
function textOf(body: Record<string, any>): string {
  if (body.type === 'text') return body.text.body;
  if (body.type === 'interactive') return body.interactive.body.text;
  return JSON.stringify(body);
}
