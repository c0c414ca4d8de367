import test from 'ava';
import { chatClient, chattingTenant, readEventStream } from '#testing/chat.js';
import { shopItems } from '#testing/shop-content.js';
import { startIngestionStack, untilSearchable, type IngestionStack } from '#testing/ingestion.js';
import { assertMatchesSchema } from '#testing/schema.js';
import { conversationResponse, historyResponse, widgetConfigResponse } from '../schemas/chat.js';

let stack: IngestionStack;
/** Answers come within seconds; 10 leaves a loaded machine room, and is how long a repeated message waits to hear none comes. */
test.before(async () => {
  stack = await startIngestionStack({ CHAT_VISITOR_PER_MINUTE: '1000', CHAT_REPLY_TIMEOUT_SECONDS: '10' });
});
test.after.always(() => stack?.close());

const content = [shopItems.returns, shopItems.shipping, shopItems.tent];

/** A tenant with an operator and the content above, searchable. */
async function tenantWithContent(operatorFields: Record<string, unknown> = {}) {
  const tenant = await chattingTenant(stack.api, operatorFields);
  const response = await stack.api.request('POST', '/ingest/bulk', { body: { items: content }, headers: tenant.headers });
  await untilSearchable(stack.api, tenant.headers, response.body.jobIds);
  return tenant;
}

test('the widget configuration names the operator, greets and carries the fixed AI notice, per locale', async (t) => {
  const { operator, chat: _chat } = await chattingTenant(stack.api);
  const headers = { 'x-operator-key': operator.operatorKey };
  const english = await stack.api.request('GET', '/chat/config', { headers });
  t.is(english.status, 200);
  assertMatchesSchema(t, widgetConfigResponse, english.body);
  t.like(english.body, { operatorId: operator.id, name: 'Northwind', locale: 'en' });
  t.regex(english.body.greeting, /Northwind/);
  t.regex(english.body.aiNotice, /AI/);

  const german = await stack.api.request('GET', '/chat/config?locale=de-AT', { headers });
  t.is(german.body.locale, 'de');
  t.regex(german.body.aiNotice, /KI/);
  const unknown = await stack.api.request('GET', '/chat/config?locale=xx', { headers });
  t.is(unknown.body.locale, 'en');
});

test('an answer streams tokens, then its citations, then done, and cites the right source', async (t) => {
  const { chat } = await tenantWithContent();
  const visitor = await chat.start({ contact: { name: 'Ada', email: 'ada@example.com' } });
  assertMatchesSchema(t, conversationResponse, visitor.body);
  t.is(visitor.body.status, 'ai');
  t.true(visitor.body.messages[0].aiGenerated);

  const answer = await chat.ask(visitor, 'How many days do I have to return an item?');
  t.is(answer.status, 200);
  const names = answer.events.map((event) => event.event);
  t.is(names[0], 'accepted');
  t.true(names.includes('token'));
  t.deepEqual(names.slice(-2), ['citations', 'done']);
  t.true(names.indexOf('token') < names.indexOf('citations'));

  const reply = answer.reply;
  t.like(reply, { author: 'ai', aiGenerated: true, outcome: 'answered', replyTo: answer.events[0]!.data.messageId });
  t.truthy(reply.aiNotice);
  t.regex(reply.text, /30 days/);
  t.regex(reply.text, /\[1\]/);
  t.is(reply.citations[0].externalId, 'returns');
  t.is(reply.citations[0].url, 'https://shop.example/help/returns');
  const tokens = answer.events.filter((event) => event.event === 'token').map((event) => event.data.delta as string);
  t.true(tokens.join('').includes('30 days'));
});

test('a question nothing answers gets "I don\'t know" and the offer of a person, never an invented answer', async (t) => {
  const { chat } = await tenantWithContent();
  const visitor = await chat.start();
  for (const question of ['Who won the football world cup in 2014?', 'Do you sell kayaks?']) {
    const answer = await chat.ask(visitor, question);
    t.like(answer.reply, { outcome: 'unknown', aiGenerated: true, citations: [] }, question);
    t.regex(answer.reply.text, /don't know/, question);
    t.regex(answer.reply.text, /person/, question);
  }
});

test('the history holds every message in order, and the German locale answers in German', async (t) => {
  const { chat } = await tenantWithContent();
  const visitor = await chat.start({ locale: 'de' });
  t.regex(visitor.body.messages[0].text, /KI-Assistent/);
  await chat.ask(visitor, 'Wer hat die Fußball-WM 2014 gewonnen?');
  const history = await chat.history(visitor);
  t.is(history.status, 200);
  assertMatchesSchema(t, historyResponse, history.body);
  t.deepEqual(
    history.body.messages.map((message: { author: string }) => message.author),
    ['ai', 'visitor', 'ai'],
  );
  t.regex(history.body.messages[2].text, /weiß ich leider nicht/);
  t.regex(history.body.messages[2].aiNotice, /KI/);
});

test('a message sent twice with the same id is taken in once', async (t) => {
  const { chat } = await tenantWithContent();
  const visitor = await chat.start();
  const messageId = '6f1c1c1e-7d4c-4b8f-9a53-0d1f0f6f2a11';
  const first = await chat.ask(visitor, 'How long does express delivery take?', { messageId });
  t.is(first.reply.outcome, 'answered');
  const again = await chat.ask(visitor, 'How long does express delivery take?', { messageId });
  t.is(again.status, 200);
  t.is(again.events.find((event) => event.event === 'error')?.data.error.code, 'reply_delayed', 'no second answer comes');
  const history = await chat.history(visitor);
  t.is(history.body.messages.filter((message: { author: string }) => message.author === 'visitor').length, 1);
});

test('allowed domains: each pattern shape, the empty list, and rejections answer 403 without details', async (t) => {
  const cases: Array<[string[], string | undefined, boolean]> = [
    [[], undefined, true],
    [[], 'https://anywhere.test', true],
    [['shop.example'], 'https://shop.example', true],
    [['shop.example'], 'https://www.shop.example', false],
    [['*.shop.example'], 'https://www.shop.example', true],
    [['*.shop.example'], 'https://shop.example', false],
    [['https://app.shop.example'], 'https://app.shop.example', true],
    [['https://app.shop.example'], 'http://app.shop.example', false],
    [['shop.example'], undefined, false],
  ];
  for (const [allowedDomains, origin, allowed] of cases) {
    const { operator } = await chattingTenant(stack.api, { allowedDomains });
    const response = await stack.api.request('GET', '/chat/config', {
      headers: { 'x-operator-key': operator.operatorKey, ...(origin ? { origin } : {}) },
    });
    const label = `${JSON.stringify(allowedDomains)} from ${origin}`;
    t.is(response.status, allowed ? 200 : 403, label);
    if (!allowed) {
      t.is(response.body.error.code, 'forbidden', label);
      t.notRegex(JSON.stringify(response.body), /shop\.example|Northwind/, label);
    }
  }
});

test('a missing key is 401, an unknown key 403, both in the error shape', async (t) => {
  const missing = await stack.api.request('GET', '/chat/config');
  t.is(missing.status, 401);
  t.is(missing.body.error.code, 'unauthorized');
  const unknown = await stack.api.request('GET', '/chat/config', { headers: { 'x-operator-key': 'op_nope' } });
  t.is(unknown.status, 403);
  t.is(unknown.body.error.code, 'forbidden');
  const apiKey = await stack.api.request('GET', '/chat/config', { headers: { 'x-api-key': 'kb_sk_x' } });
  t.is(apiKey.status, 401, 'an API key is no operator key');
});

test('browsers may call the chat routes: preflight and answers carry CORS headers', async (t) => {
  const { operator } = await chattingTenant(stack.api, { allowedDomains: ['shop.example'] });
  const preflight = await fetch(`${stack.api.url}/chat/conversations`, {
    method: 'OPTIONS',
    headers: {
      origin: 'https://shop.example',
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type, x-operator-key',
    },
  });
  t.is(preflight.status, 204);
  t.is(preflight.headers.get('access-control-allow-origin'), 'https://shop.example');
  t.regex(preflight.headers.get('access-control-allow-headers') ?? '', /x-operator-key/);

  const refused = await stack.api.request('GET', '/chat/config', {
    headers: { 'x-operator-key': operator.operatorKey, origin: 'https://evil.example' },
  });
  t.is(refused.status, 403);
  t.is(refused.headers.get('access-control-allow-origin'), 'https://evil.example', 'the widget can read why');
  const other = await stack.api.request('GET', '/health');
  t.is(other.headers.get('access-control-allow-origin'), null, 'only the chat routes are open to browsers');
});

test("conversations are the visitor's own: a wrong token or another operator is 403, an unknown id 404", async (t) => {
  const first = await chattingTenant(stack.api);
  const second = await chattingTenant(stack.api);
  const visitor = await first.chat.start();
  const path = `/chat/conversations/${visitor.conversationId}/messages`;

  const wrongToken = await stack.api.request('GET', path, {
    headers: { 'x-operator-key': first.operator.operatorKey, 'x-visitor-token': 'kb_vt_wrong' },
  });
  t.is(wrongToken.status, 403);
  const otherTenant = await stack.api.request('GET', path, {
    headers: { 'x-operator-key': second.operator.operatorKey, 'x-visitor-token': visitor.visitorToken },
  });
  t.is(otherTenant.status, 403);
  t.notRegex(JSON.stringify(otherTenant.body), new RegExp(first.tenant.id));
  const noToken = await stack.api.request('GET', path, { headers: { 'x-operator-key': first.operator.operatorKey } });
  t.is(noToken.status, 401);
  const unknown = await stack.api.request('GET', '/chat/conversations/7d3f0c4e-0000-4000-8000-000000000000/messages', {
    headers: visitor.headers,
  });
  t.is(unknown.status, 404);
});

test('invalid messages are refused with details', async (t) => {
  const { chat } = await chattingTenant(stack.api);
  const visitor = await chat.start();
  const path = `/chat/conversations/${visitor.conversationId}/messages`;
  for (const body of [
    {},
    { text: '' },
    { text: '   ' },
    { text: 'x'.repeat(4001) },
    { text: 'hi', extra: 1 },
    { text: 'hi', messageId: 'no' },
  ]) {
    const response = await stack.api.request('POST', path, { body, headers: visitor.headers });
    t.is(response.status, 400, JSON.stringify(body).slice(0, 40));
    t.is(response.body.error.code, 'invalid_payload');
    t.true(response.body.error.details.length > 0);
  }
  const badStart = await stack.api.request('POST', '/chat/conversations', {
    body: { contact: { email: 'not-an-email' } },
    headers: { 'x-operator-key': (await chattingTenant(stack.api)).operator.operatorKey },
  });
  t.is(badStart.status, 400);
  t.is(badStart.body.error.details[0].path, '/contact/email');
});

test('following a conversation streams new messages with ids, and resumes after Last-Event-ID', async (t) => {
  const { chat } = await tenantWithContent();
  const visitor = await chat.start();
  const following = await chat.follow(visitor);
  t.is(following.status, 200);
  t.regex(following.headers.get('content-type') ?? '', /text\/event-stream/);
  const events = readEventStream(
    following,
    performance.now(),
    (event) => event.event === 'message' && event.data.message.author === 'ai',
  );
  await chat.ask(visitor, 'Where do you ship to?');
  const seen = await events;
  const messages = seen.filter((event) => event.event === 'message');
  t.deepEqual(
    messages.map((event) => event.data.message.author),
    ['visitor', 'ai'],
  );
  t.truthy(messages[0]!.id);

  const resumed = await chat.follow(visitor, messages[0]!.id!);
  const replayed = await readEventStream(resumed, performance.now(), (event) => event.event === 'message');
  t.is(replayed.find((event) => event.event === 'message')?.data.message.author, 'ai');

  const bad = await stack.api.request('GET', `/chat/conversations/${visitor.conversationId}/events`, {
    headers: { ...visitor.headers, 'last-event-id': 'x' },
  });
  t.is(bad.status, 400);
});

test('a visitor who sends too much is rate limited with Retry-After', async (t) => {
  const limited = await startIngestionStack({ CHAT_VISITOR_PER_MINUTE: '3' }, { worker: false });
  try {
    const { operator } = await chattingTenant(limited.api);
    const chat = chatClient(limited.api.url, operator.operatorKey);
    const visitor = await chat.start();
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await chat.history(visitor)).status);
    t.deepEqual(statuses, [200, 200, 200, 429]);
    const last = await limited.api.request('GET', `/chat/conversations/${visitor.conversationId}/messages`, {
      headers: visitor.headers,
    });
    t.is(last.body.error.code, 'rate_limited');
    t.truthy(last.headers.get('retry-after'));
  } finally {
    await limited.close();
  }
});
