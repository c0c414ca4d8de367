/**
 * The chat API's budgets against one address or visitor that asks too much: it runs out of its own
 * budget, and the operator's other visitors do not notice. Every address here is made up and sent
 * as X-Forwarded-For, as the one proxy in front of the API (TRUSTED_PROXY_HOPS=1) would send it.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import test from 'ava';
import { chattingTenant } from '#testing/chat.js';
import { startIngestionStack, type IngestionStack } from '#testing/ingestion.js';

let stack: IngestionStack;
test.before(async () => {
  stack = await startIngestionStack(
    {
      TRUSTED_PROXY_HOPS: '1',
      CHAT_VISITOR_PER_MINUTE: '5',
      CHAT_CONFIG_PER_MINUTE: '4',
      CHAT_OPERATOR_PER_MINUTE: '10',
      CHAT_CONVERSATIONS_PER_HOUR: '2',
      OPERATOR_ANSWERS_PER_DAY: '2',
    },
    { worker: false },
  );
});
test.after.always(() => stack?.close());

// Each test's addresses are its own: the tests of this file run at once, on one API.
let addresses = 0;
/** A fresh IPv4 address of a documentation range. */
const someAddress = () => `198.51.${100 + Math.floor(++addresses / 250)}.${addresses % 250}`;
/** A fresh IPv6 /64 of the documentation range. */
const someNetwork = () => `2001:db8:${(++addresses).toString(16)}:0`;

async function widget() {
  const { operator } = await chattingTenant(stack.api);
  const operatorKey = operator.operatorKey as string;
  const from = (address: string, extra: Record<string, string> = {}) => ({
    'x-operator-key': operatorKey,
    'x-forwarded-for': address,
    ...extra,
  });
  return {
    operatorKey,
    config: (address: string) => stack.api.request('GET', '/chat/config', { headers: from(address) }),
    start: (address: string) => stack.api.request('POST', '/chat/conversations', { body: {}, headers: from(address) }),
    history: (address: string, conversationId: string, visitorToken: string) =>
      stack.api.request('GET', `/chat/conversations/${conversationId}/messages`, {
        headers: from(address, { 'x-visitor-token': visitorToken }),
      }),
    /** Sends a message; only the status (and the error, when refused) is read, not the answer stream. */
    async send(address: string, conversationId: string, visitorToken: string) {
      const response = await fetch(`${stack.api.url}/chat/conversations/${conversationId}/messages`, {
        method: 'POST',
        headers: { ...from(address, { 'x-visitor-token': visitorToken }), 'content-type': 'application/json' },
        body: JSON.stringify({ text: 'Where is my order?' }),
      });
      if (response.status === 200) {
        await response.body?.cancel();
        return { status: 200, headers: response.headers, body: undefined };
      }
      return { status: response.status, headers: response.headers, body: (await response.json()) as any };
    },
  };
}

test('an address that loads the widget too often is refused alone: the operator budget stays for everyone else', async (t) => {
  const chat = await widget();
  const looping = someAddress();
  const statuses: number[] = [];
  for (let i = 0; i < 12; i++) statuses.push((await chat.config(looping)).status);
  t.deepEqual(statuses, [200, 200, 200, 200, 429, 429, 429, 429, 429, 429, 429, 429]);
  const refused = await chat.config(looping);
  t.is(refused.body.error.code, 'rate_limited');
  t.truthy(refused.headers.get('retry-after'));

  // Twelve requests would have spent the operator's ten: only the four that passed did.
  for (let i = 0; i < 4; i++) t.is((await chat.config(someNetwork() + '::1')).status, 200, `another visitor, ${i}`);
});

test("requests with a wrong visitor token cost the operator's other visitors nothing", async (t) => {
  const chat = await widget();
  const prober = someAddress();
  const statuses: number[] = [];
  for (let i = 0; i < 12; i++) {
    statuses.push((await chat.history(prober, randomUUID(), randomBytes(32).toString('base64url'))).status);
  }
  // Refusals count against the address: past its budget, it is not even looked up.
  t.deepEqual(statuses, [404, 404, 404, 404, 404, 429, 429, 429, 429, 429, 429, 429]);
  const visitorAddress = someNetwork() + '::7';
  const started = await chat.start(visitorAddress);
  t.is(started.status, 201);
  const history = await chat.history(visitorAddress, started.body.conversationId, started.body.visitorToken);
  t.is(history.status, 200, JSON.stringify(history.body));
});

test('the client address is the one the trusted proxy saw, not what the client wrote before it', async (t) => {
  const chat = await widget();
  const real = someAddress();
  const statuses: number[] = [];
  // A client may send any X-Forwarded-For; the proxy appends the address it was called from.
  for (let i = 0; i < 5; i++) statuses.push((await chat.config(`10.${i}.0.1, ${someAddress()}, ${real}`)).status);
  t.deepEqual(statuses, [200, 200, 200, 200, 429]);
});

test('an IPv6 client is counted by its /64: new addresses in the same network do not reset the budget', async (t) => {
  const chat = await widget();
  const network = someNetwork();
  const statuses: number[] = [];
  for (let i = 1; i <= 5; i++) statuses.push((await chat.config(`${network}:${i}:${i}:${i}:${i}`)).status);
  t.deepEqual(statuses, [200, 200, 200, 200, 429]);
  t.is((await chat.config(`${someNetwork()}::1`)).status, 200, 'another /64 has its own budget');
});

test('an address starts only so many conversations per hour with one operator', async (t) => {
  const [chat, other] = [await widget(), await widget()];
  const address = someAddress();
  const statuses: number[] = [];
  for (let i = 0; i < 3; i++) statuses.push((await chat.start(address)).status);
  t.deepEqual(statuses, [201, 201, 429]);
  const refused = await chat.start(address);
  t.is(refused.body.error.code, 'rate_limited');
  t.regex(refused.body.error.message, /new conversations from this address/);
  t.true(Number(refused.headers.get('retry-after')) > 60, 'the hour, not the minute');
  t.is((await other.start(address)).status, 201, "another operator's widget counts its own");
});

test("once an operator's answers for the day are spent, a message is refused with answer_budget_exhausted", async (t) => {
  const chat = await widget();
  const address = someAddress();
  const { body } = await chat.start(address);
  const send = () => chat.send(address, body.conversationId, body.visitorToken);
  t.is((await send()).status, 200);
  t.is((await send()).status, 200);
  const refused = await send();
  t.is(refused.status, 429);
  t.is(refused.body.error.code, 'answer_budget_exhausted');
  const retryAfter = Number(refused.headers.get('retry-after'));
  t.true(retryAfter >= 1 && retryAfter <= 86_400, `until midnight UTC: ${retryAfter}`);

  // Another visitor of the same operator: the budget is the operator's.
  const second = await chat.start(someAddress());
  t.is(
    (await chat.send(address, second.body.conversationId, second.body.visitorToken)).body?.error.code,
    'answer_budget_exhausted',
  );
});
