import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import test, { type ExecutionContext } from 'ava';
import { createEventPublisher, type ConversationEvent } from '#conversations/events.js';
import { hashSecret } from '#tenancy/secrets.js';
import { tenancyKeys } from '#tenancy/redis-keys.js';
import { chattingTenant, readEventStream, type ChatVisitor } from '#testing/chat.js';
import { eventually } from '#testing/eventually.js';
import { startTestApi, type TestApi } from '#testing/api.js';
import { errorBody } from './schemas/common.js';
import { assertMatchesSchema } from '#testing/schema.js';

/** Caps small enough to reach; streams that live long enough not to end by themselves here. */
let capped: TestApi;
/** Streams that end after a second. */
let brief: TestApi;
/** Streams that end only by a slow reader or a token that no longer works (and when the client leaves). */
let strict: TestApi;
test.before(async () => {
  const common = { CHAT_VISITOR_PER_MINUTE: '10000', CHAT_OPERATOR_PER_MINUTE: '100000' };
  [capped, brief, strict] = await Promise.all([
    startTestApi({ ...common, STREAMS_PER_CONVERSATION: '2', STREAMS_PER_ADDRESS: '3', STREAMS_PER_USER: '2' }),
    startTestApi({ ...common, STREAM_MAX_LIFETIME_SECONDS: '1' }),
    startTestApi({
      ...common,
      STREAM_SLOW_READER_BYTES: '65536',
      STREAM_SLOW_READER_SECONDS: '0',
      STREAM_RECHECK_SECONDS: '0.1',
    }),
  ]);
});
test.after.always(async () => {
  await Promise.all([capped?.close(), brief?.close(), strict?.close()]);
});

const message = (text: string): ConversationEvent => ({
  type: 'message',
  message: { id: randomUUID(), author: 'agent', text, createdAt: new Date().toISOString(), aiGenerated: false },
});

async function agentOf(api: TestApi, tenantId: string) {
  const user = await api.admin('POST', `/admin/tenants/${tenantId}/users`, {
    name: 'Ada',
    email: `${randomUUID()}@shop.example`,
    role: 'agent',
  });
  return user.body.token as string;
}

/** An agent's two streams on the strict API (the inbox's and one conversation's), both open. */
async function openAgentStreams(t: ExecutionContext, headers: Record<string, string>, conversationId: string) {
  const streams = await Promise.all([
    fetch(`${strict.url}/agent/events`, { headers }),
    fetch(`${strict.url}/agent/conversations/${conversationId}/events`, { headers }),
  ]);
  t.deepEqual(
    streams.map((response) => response.status),
    [200, 200],
  );
  return streams;
}

/** Sends a request on a raw socket and resets the connection at once, as a client that leaves. */
function requestAndReset(api: TestApi, path: string, headers: Record<string, string>, body?: unknown): Promise<void> {
  const { port } = new URL(api.url);
  const json = body === undefined ? '' : JSON.stringify(body);
  const all = {
    ...headers,
    ...(json ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(json)) } : {}),
  };
  return new Promise((resolve) => {
    const socket = connect(Number(port), '127.0.0.1', () => {
      const head = Object.entries(all).map(([name, value]) => `${name}: ${value}\r\n`);
      const method = json ? 'POST' : 'GET';
      socket.write(`${method} ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\n${head.join('')}\r\n${json}`, () => {
        socket.resetAndDestroy();
        resolve();
      });
    });
    socket.on('error', () => resolve());
  });
}

const nothingOpen = (api: TestApi) =>
  eventually(
    async () => ({ streams: api.live.streams(), followings: api.live.followings() }),
    (live) => live.streams === 0 && live.followings === 0,
  );

test.serial('F6: clients that leave before their stream opens leave no stream, timer or subscription behind', async (t) => {
  const { chat, tenant } = await chattingTenant(strict);
  const visitor = await chat.start();
  const token = await agentOf(strict, tenant.id);
  const leaving: Array<Promise<void>> = [];
  for (let i = 0; i < 40; i++) {
    leaving.push(
      requestAndReset(strict, `/chat/conversations/${visitor.conversationId}/events`, {
        ...visitor.headers,
        accept: 'text/event-stream',
      }),
      requestAndReset(strict, `/agent/conversations/${visitor.conversationId}/events`, { authorization: `Bearer ${token}` }),
      requestAndReset(strict, '/agent/events', { authorization: `Bearer ${token}` }),
    );
  }
  // A message's answer stream too (a POST: its request is closed once the body is read, its client still there or not).
  for (let i = 0; i < 10; i++)
    leaving.push(
      requestAndReset(strict, `/chat/conversations/${visitor.conversationId}/messages`, visitor.headers, { text: `Hello ${i}` }),
    );
  await Promise.all(leaving);
  t.deepEqual(await nothingOpen(strict), { streams: 0, followings: 0 });

  // And the routes still serve a client that stays.
  const staying = await chat.follow(visitor);
  t.is(staying.status, 200);
  await staying.body?.cancel();
  t.deepEqual(await nothingOpen(strict), { streams: 0, followings: 0 });
});

test.serial('F7: streams are capped per conversation, per address and per user, with 429 in the one error shape', async (t) => {
  const { chat, tenant } = await chattingTenant(capped);
  const first = await chat.start();
  const second = await chat.start();
  const open = [await chat.follow(first), await chat.follow(first)];
  t.deepEqual(
    open.map((response) => response.status),
    [200, 200],
  );

  const refused = await capped.request('GET', `/chat/conversations/${first.conversationId}/events`, {
    headers: first.headers,
  });
  t.is(refused.status, 429);
  assertMatchesSchema(t, errorBody, refused.body);
  t.is(refused.body.error.code, 'rate_limited');
  t.regex(refused.body.error.message, /this conversation: at most 2 open event streams/);
  t.truthy(refused.headers.get('retry-after'));

  // The address holds 2 of its 3: one more, of another conversation, and then no more.
  const third = await chat.follow(second);
  t.is(third.status, 200);
  const overAddress = await capped.request('GET', `/chat/conversations/${second.conversationId}/events`, {
    headers: second.headers,
  });
  t.is(overAddress.status, 429);
  t.regex(overAddress.body.error.message, /this address/);

  // A stream that ends gives its place back.
  await open[0]!.body?.cancel();
  await eventually(
    async () => capped.live.streams(),
    (count) => count === 2,
  );
  const again = await chat.follow(first);
  t.is(again.status, 200);

  // Agents: per user.
  const agent = { authorization: `Bearer ${await agentOf(capped, tenant.id)}` };
  const inbox = (await Promise.all([0, 1].map(() => fetch(`${capped.url}/agent/events`, { headers: agent })))).map(
    (response) => response,
  );
  t.deepEqual(
    inbox.map((response) => response.status),
    [200, 200],
  );
  const overUser = await capped.request('GET', '/agent/events', { headers: agent });
  t.is(overUser.status, 429);
  t.regex(overUser.body.error.message, /this user/);

  for (const response of [open[1]!, third, again, ...inbox]) await response.body?.cancel();
  t.deepEqual(await nothingOpen(capped), { streams: 0, followings: 0 });
});

test.serial('F7: a stream ends after its lifetime, and the client resumes from Last-Event-ID without a gap', async (t) => {
  const { chat } = await chattingTenant(brief);
  const visitor = await chat.start();
  const publisher = createEventPublisher(brief.redis, brief.config.redis.prefix);

  await publisher.publish(visitor.conversationId, message('before the end'));
  // From the start of the conversation's events, read to the end: the server ends the stream by itself.
  const seen = (await readEventStream(await chat.follow(visitor, '0-0'), performance.now())).filter(
    (event) => event.event === 'message',
  );
  t.deepEqual(
    seen.map((event) => event.data.message.text),
    ['before the end'],
  );

  await publisher.publish(visitor.conversationId, message('while away'));
  const resumed = await readEventStream(await chat.follow(visitor, seen[0]!.id!), performance.now());
  t.deepEqual(
    resumed.filter((event) => event.event === 'message').map((event) => event.data.message.text),
    ['while away'],
  );
});

test.serial('F7: a reader that does not read is dropped, not buffered without end', async (t) => {
  const { chat } = await chattingTenant(strict);
  const visitor: ChatVisitor = await chat.start();
  const publisher = createEventPublisher(strict.redis, strict.config.redis.prefix);
  const { port } = new URL(strict.url);

  // A client that sends the request and never reads a byte of the answer.
  const request = httpRequest({
    host: '127.0.0.1',
    port: Number(port),
    path: `/chat/conversations/${visitor.conversationId}/events`,
    headers: { ...visitor.headers, accept: 'text/event-stream' },
  });
  request.on('response', (response) => response.pause());
  request.on('error', () => undefined);
  request.end();
  await eventually(
    async () => strict.live.followings(),
    (count) => count === 1,
  );

  const big = 'x'.repeat(64 * 1024);
  let published = 0;
  while (strict.live.streams() > 0 && published < 2_000) {
    await publisher.publish(visitor.conversationId, message(big));
    published++;
  }
  t.true(published < 2_000, 'the stream was dropped');
  t.deepEqual(await nothingOpen(strict), { streams: 0, followings: 0 });
  request.destroy();
});

test.serial("an agent's streams end once the user's token no longer authenticates", async (t) => {
  const { chat, tenant } = await chattingTenant(strict);
  const visitor = await chat.start();
  const token = await agentOf(strict, tenant.id);
  const headers = { authorization: `Bearer ${token}` };
  const streams = await openAgentStreams(t, headers, visitor.conversationId);

  // The token's record goes, as a revocation or a removed user would take it.
  await strict.redis.del(tenancyKeys(strict.config.redis.prefix).userByTokenHash(hashSecret(token)));
  const ended = await Promise.all(streams.map((response) => readEventStream(response, performance.now())));
  t.is(ended.length, 2);
  t.deepEqual(await nothingOpen(strict), { streams: 0, followings: 0 });
  t.is((await strict.request('GET', '/agent/events', { headers })).status, 401);
});

for (const [how, end] of [
  [
    'its user is deactivated',
    (tenantId: string, userId: string) => strict.admin('PATCH', `/admin/tenants/${tenantId}/users/${userId}`, { active: false }),
  ],
  [
    'its token is rotated',
    (tenantId: string, userId: string) => strict.admin('POST', `/admin/tenants/${tenantId}/users/${userId}/token`),
  ],
] as const) {
  test.serial(`an agent's open streams end when ${how} through the admin API`, async (t) => {
    const { chat, tenant } = await chattingTenant(strict);
    const visitor = await chat.start();
    const user = await strict.admin('POST', `/admin/tenants/${tenant.id}/users`, {
      name: 'Ada',
      email: `${randomUUID()}@shop.example`,
      role: 'agent',
    });
    const headers = { authorization: `Bearer ${user.body.token}` };
    const streams = await openAgentStreams(t, headers, visitor.conversationId);

    t.true([200, 201].includes((await end(tenant.id, user.body.id)).status));
    await Promise.all(streams.map((response) => readEventStream(response, performance.now())));
    t.deepEqual(await nothingOpen(strict), { streams: 0, followings: 0 });
    t.is((await strict.request('GET', '/agent/events', { headers })).status, 401);
  });
}

test('F26: a chat conversation id that is not a UUID is 404 in the one error shape', async (t) => {
  const { chat } = await chattingTenant(capped);
  const visitor = await chat.start();
  for (const id of [`${visitor.conversationId}:messages`, `${visitor.conversationId}:events`, 'x']) {
    for (const [method, suffix] of [
      ['GET', 'messages'],
      ['GET', 'events'],
      ['POST', 'handoff'],
    ] as const) {
      const response = await capped.request(method, `/chat/conversations/${encodeURIComponent(id)}/${suffix}`, {
        headers: visitor.headers,
      });
      t.is(response.status, 404, `${method} ${id} ${suffix}`);
      assertMatchesSchema(t, errorBody, response.body);
      t.is(response.body.error.code, 'not_found');
    }
  }
});
