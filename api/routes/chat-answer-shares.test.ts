/**
 * Finding G1 of the 2026-11b security review: one address collected conversations (each with its own
 * visitor budget) and spent an operator's whole day of AI answers in minutes. Each conversation and each
 * address now has a daily share of the answers, and the visitors behind one address a request budget on
 * their conversations' routes; the attack stops at its share and the other visitors are still answered.
 * Addresses are made up and sent as X-Forwarded-For, as the one proxy in front of the API would send them.
 */
import test from 'ava';
import { chattingTenant } from '#testing/chat.js';
import { startIngestionStack, type IngestionStack } from '#testing/ingestion.js';
import { assertMatchesSchema } from '#testing/schema.js';
import { errorBody } from '#api/schemas/common.js';

let stack: IngestionStack;
test.before(async () => {
  stack = await startIngestionStack(
    {
      TRUSTED_PROXY_HOPS: '1',
      CHAT_VISITOR_PER_MINUTE: '100',
      CHAT_OPERATOR_PER_MINUTE: '1000',
      CHAT_CONVERSATIONS_PER_HOUR: '100',
      CHAT_ADDRESS_PER_MINUTE: '15',
      CHAT_ANSWERS_PER_CONVERSATION_PER_DAY: '2',
      CHAT_ANSWERS_PER_ADDRESS_PER_DAY: '5',
      OPERATOR_ANSWERS_PER_DAY: '100',
    },
    { worker: false },
  );
});
test.after.always(() => stack?.close());

let addresses = 0;
const someAddress = () => `203.0.113.${++addresses}`;

async function widget() {
  const { operator } = await chattingTenant(stack.api);
  const from = (address: string, extra: Record<string, string> = {}) => ({
    'x-operator-key': operator.operatorKey as string,
    'x-forwarded-for': address,
    ...extra,
  });
  return {
    async start(address: string) {
      const started = await stack.api.request('POST', '/chat/conversations', { body: {}, headers: from(address) });
      if (started.status !== 201) throw new Error(`start answered ${started.status}`);
      return {
        address,
        headers: from(address, { 'x-visitor-token': started.body.visitorToken }),
        id: started.body.conversationId as string,
      };
    },
    /** Sends a message; the status, and the error when refused (the answer stream is not read: no worker runs). */
    async send(visitor: { headers: Record<string, string>; id: string }) {
      const response = await fetch(`${stack.api.url}/chat/conversations/${visitor.id}/messages`, {
        method: 'POST',
        headers: { ...visitor.headers, 'content-type': 'application/json' },
        body: JSON.stringify({ text: 'Where is my order?' }),
      });
      if (response.status === 200) {
        await response.body?.cancel();
        return { status: 200, body: undefined };
      }
      return { status: response.status, body: (await response.json()) as any };
    },
    history: (visitor: { headers: Record<string, string>; id: string }) =>
      stack.api.request('GET', `/chat/conversations/${visitor.id}/messages`, { headers: visitor.headers }),
  };
}

test('conversations collected from one address spend at most its share of the day’s answers; other visitors are answered', async (t) => {
  const chat = await widget();
  const attacker = someAddress();
  const collected = [];
  for (let i = 0; i < 4; i++) collected.push(await chat.start(attacker));

  const statuses: number[] = [];
  for (const visitor of collected) for (let i = 0; i < 3; i++) statuses.push((await chat.send(visitor)).status);
  // Two answers per conversation, five for the address: 2 + 2 + 1, then nothing more from it today.
  t.deepEqual(statuses, [200, 200, 429, 200, 200, 429, 200, 429, 429, 429, 429, 429]);
  const refused = await chat.send(await chat.start(attacker));
  assertMatchesSchema(t, errorBody, refused.body);
  t.is(refused.body.error.code, 'rate_limited');
  t.regex(refused.body.error.message, /this address's AI answers today/);

  // A real visitor elsewhere is answered: the operator's day is not spent.
  const visitor = await chat.start(someAddress());
  t.is((await chat.send(visitor)).status, 200);
  t.is((await chat.send(visitor)).status, 200);
  const third = await chat.send(visitor);
  t.is(third.status, 429);
  t.regex(third.body.error.message, /this conversation's AI answers today/);
});

test('the visitors behind one address share a request budget on their conversations, so collected conversations do not add up', async (t) => {
  const chat = await widget();
  const attacker = someAddress();
  const collected = [await chat.start(attacker), await chat.start(attacker), await chat.start(attacker)];
  const statuses: number[] = [];
  for (let round = 0; round < 6; round++) for (const visitor of collected) statuses.push((await chat.history(visitor)).status);
  t.is(statuses.filter((status) => status === 200).length, 15, 'fifteen a minute from the address, whatever the conversation');
  t.true(statuses.slice(15).every((status) => status === 429));
  const other = await chat.start(someAddress());
  t.is((await chat.history(other)).status, 200, 'another address is not affected');
});
