/**
 * The widget's ratings through the real API and worker: answers rated up and down, scores after an
 * agent closed the conversation, what the conversation and its transcripts then say, the refusals
 * and the ratings' budgets (small here: 8 per visitor, 12 per operator).
 */
import { randomUUID } from 'node:crypto';
import test from 'ava';
import { createDayCounters, dayOf } from '#insights/day-counters.js';
import { chattingTenant, type ChatVisitor } from '#testing/chat.js';
import { eventually } from '#testing/eventually.js';
import { startIngestionStack, untilSearchable, type IngestionStack } from '#testing/ingestion.js';
import { shopItems } from '#testing/shop-content.js';

let stack: IngestionStack;
test.before(async () => {
  stack = await startIngestionStack({
    CHAT_VISITOR_PER_MINUTE: '1000',
    CHAT_RATINGS_PER_VISITOR: '8',
    CHAT_RATINGS_OPERATOR_PER_MINUTE: '12',
    CHAT_REPLY_TIMEOUT_SECONDS: '20',
  });
});
test.after.always(() => stack?.close());

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** A tenant with the shop's content searchable, an agent, and the widget's calls. */
async function widgetTenant() {
  const tenant = await chattingTenant(stack.api);
  const response = await stack.api.request('POST', '/ingest/bulk', {
    body: { items: [shopItems.returns, shopItems.shipping] },
    headers: tenant.headers,
  });
  await untilSearchable(stack.api, tenant.headers, response.body.jobIds);
  const agent = bearer(
    (
      await stack.api.admin('POST', `/admin/tenants/${tenant.tenant.id}/users`, {
        name: 'Ada',
        email: `${randomUUID()}@shop.example`,
        role: 'agent',
      })
    ).body.token,
  );
  return { ...tenant, agent, ...widgetCalls() };
}

function widgetCalls() {
  const conversationPath = (visitor: ChatVisitor) => `/chat/conversations/${visitor.conversationId}`;
  return {
    rate: (visitor: ChatVisitor, messageId: string, body: unknown) =>
      stack.api.request('PUT', `${conversationPath(visitor)}/messages/${encodeURIComponent(messageId)}/feedback`, {
        headers: visitor.headers,
        body,
      }),
    score: (visitor: ChatVisitor, body: unknown) =>
      stack.api.request('PUT', `${conversationPath(visitor)}/satisfaction`, { headers: visitor.headers, body }),
    conversation: (visitor: ChatVisitor) => stack.api.request('GET', conversationPath(visitor), { headers: visitor.headers }),
    history: (visitor: ChatVisitor) =>
      stack.api.request('GET', `${conversationPath(visitor)}/messages`, { headers: visitor.headers }),
  };
}

test('an answer rated up, then down with a reason: the rating is replaced, counted once, and shown in both transcripts', async (t) => {
  const { chat, rate, history, agent, operator, tenant } = await widgetTenant();
  const visitor = await chat.start();
  const answer = await chat.ask(visitor, 'How many days do I have to return an item?');
  t.like(answer.reply, { author: 'ai', outcome: 'answered' });
  const messageId = answer.reply.id as string;

  const up = await rate(visitor, messageId, { rating: 'up' });
  t.is(up.status, 200);
  t.like(up.body, { messageId, rating: 'up', reason: null });
  const down = await rate(visitor, messageId, { rating: 'down', reason: 'It is 14 days in my country.' });
  t.is(down.status, 200);
  t.like(down.body, { messageId, rating: 'down', reason: 'It is 14 days in my country.' });
  t.true(Date.parse(down.body.ratedAt) >= Date.parse(up.body.ratedAt));

  const day = dayOf(Date.parse(up.body.ratedAt));
  const counters = createDayCounters(stack.api.redis, stack.api.config.redis.prefix);
  const { days } = await counters.read({ tenantId: tenant.id, operatorId: operator.id }, [day]);
  // The conversation's start and its answer are counted that day too.
  t.deepEqual(days[0]!.counts, {
    'started:widget': 1,
    'answers:widget:answered': 1,
    'feedback:widget:up': 0,
    'feedback:widget:down': 1,
  });

  const feedback = { rating: 'down', reason: 'It is 14 days in my country.' };
  const read = await history(visitor);
  t.deepEqual(read.body.messages.find((message: { id: string }) => message.id === messageId).feedback, feedback);
  t.is(read.body.messages.filter((message: { feedback?: unknown }) => message.feedback).length, 1);
  const inbox = await stack.api.request('GET', `/agent/conversations/${visitor.conversationId}`, { headers: agent });
  t.deepEqual(inbox.body.messages.find((message: { id: string }) => message.id === messageId).feedback, feedback);

  // "I don't know" can be rated too; a reason with `up` is kept.
  const unknown = await chat.ask(visitor, 'Do you sell kayaks?');
  t.is(unknown.reply.outcome, 'unknown');
  const kept = await rate(visitor, unknown.reply.id, { rating: 'up', reason: 'Honest, thanks' });
  t.like(kept.body, { rating: 'up', reason: 'Honest, thanks' });
});

test("only this conversation's AI answers can be rated; another visitor's token is refused", async (t) => {
  const { chat, rate } = await widgetTenant();
  const visitor = await chat.start();
  const answer = await chat.ask(visitor, 'How long does shipping take?');
  const other = await chat.start();
  const otherAnswer = await chat.ask(other, 'How many days do I have to return an item?');

  const visitorMessageId = answer.events[0]!.data.messageId as string;
  for (const messageId of ['no-such-message', visitorMessageId, 'greeting', otherAnswer.reply.id]) {
    const refused = await rate(visitor, messageId, { rating: 'up' });
    t.is(refused.status, 404, messageId);
    t.is(refused.body.error.code, 'not_found', messageId);
  }
  const unknownConversation = await rate({ ...visitor, conversationId: randomUUID() }, answer.reply.id, { rating: 'up' });
  t.is(unknownConversation.status, 404);
  const stranger = await rate({ ...visitor, headers: other.headers }, answer.reply.id, { rating: 'up' });
  t.is(stranger.status, 403);
  t.is(stranger.body.error.code, 'forbidden');
  const noToken = await rate({ ...visitor, headers: { 'x-operator-key': visitor.headers['x-operator-key']! } }, answer.reply.id, {
    rating: 'up',
  });
  t.is(noToken.status, 401);
});

test('invalid ratings and scores are refused with details', async (t) => {
  const calls = widgetCalls();
  const { chat } = await chattingTenant(stack.api);
  const visitor = await chat.start();
  for (const body of [
    {},
    { rating: 'meh' },
    { rating: 'down', reason: 'x'.repeat(501) },
    { rating: 'down', reason: '   ' },
    { rating: 'up', stars: 5 },
    { rating: 'up', reason: 7 },
  ]) {
    const refused = await calls.rate(visitor, 'any.reply', body);
    t.is(refused.status, 400, JSON.stringify(body));
    t.is(refused.body.error.code, 'invalid_payload');
    t.true(refused.body.error.details.length > 0);
  }
  for (const body of [{}, { score: 0 }, { score: 6 }, { score: 2.5 }, { score: '5' }, { score: 5, comment: 'great' }]) {
    const refused = await calls.score(visitor, body);
    t.is(refused.status, 400, JSON.stringify(body));
    t.is(refused.body.error.code, 'invalid_payload');
  }
  const notJson = await stack.api.request('PUT', `/chat/conversations/${visitor.conversationId}/satisfaction`, {
    headers: { ...visitor.headers, 'content-type': 'application/json' },
    body: '{"score":',
  });
  t.is(notJson.status, 400);
});

test('a score is taken only after an agent closed the conversation, and a new one replaces it', async (t) => {
  const { chat, score, conversation, agent } = await widgetTenant();
  const visitor = await chat.start();
  const open = await conversation(visitor);
  t.like(open.body, { conversationId: visitor.conversationId, status: 'ai', closedBy: null, satisfaction: null });
  const early = await score(visitor, { score: 5 });
  t.is(early.status, 409);
  t.is(early.body.error.code, 'not_closed_by_agent');

  const path = `/agent/conversations/${visitor.conversationId}`;
  t.is((await stack.api.request('POST', `${path}/take-over`, { headers: agent })).status, 200);
  t.is((await stack.api.request('POST', `${path}/close`, { headers: agent })).status, 200);
  await eventually(
    () => conversation(visitor),
    (read) => read.body.closedBy === 'agent',
  );

  const first = await score(visitor, { score: 5 });
  t.is(first.status, 200);
  t.is(first.body.score, 5);
  const second = await score(visitor, { score: 3 });
  t.like(second.body, { score: 3 });
  t.like((await conversation(visitor)).body, { status: 'closed', closedBy: 'agent', satisfaction: 3 });
});

test("a visitor's ratings and an operator's have budgets of their own: 429 with Retry-After past them", async (t) => {
  const { chat } = await chattingTenant(stack.api);
  const { rate } = widgetCalls();
  const visitor = await chat.start();
  const statuses: number[] = [];
  for (let i = 0; i < 10; i++) statuses.push((await rate(visitor, `missing-${i}`, { rating: 'up' })).status);
  t.deepEqual(statuses, [404, 404, 404, 404, 404, 404, 404, 404, 429, 429]);
  const refused = await rate(visitor, 'missing', { rating: 'up' });
  t.is(refused.body.error.code, 'rate_limited');
  t.true(Number(refused.headers.get('retry-after')) > 60, 'the window is 10 minutes');
  t.is(
    (await stack.api.request('GET', `/chat/conversations/${visitor.conversationId}`, { headers: visitor.headers })).status,
    200,
  );

  // The operator's 12 per minute: 8 spent above, 4 more from another visitor, then refused for everyone.
  const another = await chat.start();
  const more: number[] = [];
  for (let i = 0; i < 6; i++) more.push((await rate(another, `missing-${i}`, { rating: 'down' })).status);
  t.deepEqual(more, [404, 404, 404, 404, 429, 429]);
  const third = await chat.start();
  const operatorRefusal = await rate(third, 'missing', { rating: 'up' });
  t.is(operatorRefusal.status, 429);
  t.regex(operatorRefusal.body.error.message, /operator/);
  t.truthy(operatorRefusal.headers.get('retry-after'));
});

test('browsers may send the rating routes: the preflight allows PUT', async (t) => {
  const response = await fetch(`${stack.api.url}/chat/conversations/${randomUUID()}/satisfaction`, {
    method: 'OPTIONS',
    headers: {
      origin: 'https://shop.example',
      'access-control-request-method': 'PUT',
      'access-control-request-headers': 'content-type, x-operator-key, x-visitor-token',
    },
  });
  t.is(response.status, 204);
  t.regex(response.headers.get('access-control-allow-methods') ?? '', /\bPUT\b/);
});
