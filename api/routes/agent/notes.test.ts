import { randomUUID } from 'node:crypto';
import test, { type ExecutionContext } from 'ava';
import { chattingTenant, readEventStream, type StreamedEvent } from '#testing/chat.js';
import { eventually } from '#testing/eventually.js';
import { startIngestionStack, type IngestionStack } from '#testing/ingestion.js';
import type { TestApi } from '#testing/api.js';
import { assertMatchesSchema } from '#testing/schema.js';
import { errorBody } from '#api/schemas/common.js';
import { agentConversationResponse } from '#api/schemas/agent.js';
import { noteListResponse, noteResponse, notificationListResponse } from '#api/schemas/notes.js';

/*
 * Private notes against the real stack: written by agents of the tenant whatever the conversation's
 * state, shown to agents among the transcript and live, mentions notifying colleagues at once, and
 * never anywhere the visitor reads.
 */

let stack: IngestionStack;
let api: TestApi;
test.before(async () => {
  stack = await startIngestionStack({ CHAT_VISITOR_PER_MINUTE: '1000', USER_PER_MINUTE: '10000' });
  api = stack.api;
});
test.after.always(() => stack?.close());

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** A tenant with an operator, two agents and an admin (each with their id and headers). */
async function team() {
  const tenant = await chattingTenant(api);
  const user = async (
    name: string,
    role: string,
    email = `${name.split(' ')[0]!.toLowerCase()}-${randomUUID()}@shop.example`,
  ) => {
    const body = (await api.admin('POST', `/admin/tenants/${tenant.tenant.id}/users`, { name, email, role })).body;
    return { id: body.id as string, email, headers: bearer(body.token as string) };
  };
  return {
    ...tenant,
    ada: await user('Ada', 'agent'),
    bob: await user('Bob Marley', 'agent'),
    admin: await user('Alex', 'admin'),
  };
}

const as = ({ headers }: { headers: Record<string, string> }) => ({
  get: (path: string) => api.request('GET', path, { headers }),
  post: (path: string, body?: unknown) => api.request('POST', path, { headers, body }),
});

/** Opens an event stream with the user's token; answers the response and a reader of its events until `until`. */
async function openStream(path: string, headers: Record<string, string>) {
  const controller = new AbortController();
  const response = await fetch(api.url + path, {
    headers: { ...headers, accept: 'text/event-stream' },
    signal: controller.signal,
  });
  const events: StreamedEvent[] = [];
  let wake = () => undefined as void;
  const done = readEventStream(response, performance.now(), (event) => {
    events.push(event);
    wake();
    return false;
  }).catch(() => undefined);
  return {
    events,
    /** Waits until an event satisfies `found` (or fails after 30 s). */
    async waitFor(found: (event: StreamedEvent) => boolean): Promise<StreamedEvent> {
      const deadline = Date.now() + 30_000;
      for (;;) {
        const event = events.find(found);
        if (event) return event;
        if (Date.now() > deadline) throw new Error(`no such event on ${path}: ${JSON.stringify(events).slice(0, 2_000)}`);
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, 200);
        });
      }
    },
    async close() {
      controller.abort();
      await done;
    },
  };
}

/** Once its stream has ended, nothing of the API listens on the channel any more. */
async function subscribersGone(t: ExecutionContext, channel: string) {
  const key = `${api.config.redis.prefix}:${channel}`;
  const counts = await eventually(
    () => api.redis.pubSubNumSub(key),
    (answer) => answer[key] === 0,
  );
  t.is(counts[key], 0, `no subscriber left on ${channel}`);
}

test('an agent writes a note: agents see it private in the transcript in time order, the visitor never does', async (t) => {
  const { chat, ada, bob } = await team();
  const visitor = await chat.start({ contact: { name: 'Grace' } });
  const path = `/agent/conversations/${visitor.conversationId}`;
  const widgetStream = await chat.follow(visitor);
  const widgetEvents = readEventStream(widgetStream, performance.now(), (event) => event.event === 'status');
  const agentStream = await openStream(`${path}/events`, ada.headers);
  await agentStream.waitFor((event) => event.event === 'conversation');

  const noteId = randomUUID();
  const text = 'Secret: customer is a VIP, offer the refund <b>now</b>';
  const written = await as(ada).post(`${path}/notes`, { text, noteId });
  t.is(written.status, 201);
  assertMatchesSchema(t, noteResponse, written.body);
  t.like(written.body, { id: noteId, conversationId: visitor.conversationId, text, private: true, mentions: [] });
  t.like(written.body.author, { name: 'Ada', userId: ada.id });

  // Live on the agent's stream, as a `note` event with a private message.
  const live = await agentStream.waitFor((event) => event.event === 'note');
  t.like(live.data.message, { id: noteId, author: 'agent', private: true, agent: { name: 'Ada' }, text });
  await agentStream.close();
  await subscribersGone(t, `conversation-notes-live:${visitor.conversationId}`);

  // The same id again (a retry): the first note, 200, nothing stored twice; another author: 409.
  const again = await as(ada).post(`${path}/notes`, { text: 'changed', noteId });
  t.is(again.status, 200);
  t.is(again.body.text, text);
  const stolen = await as(bob).post(`${path}/notes`, { text: 'mine', noteId });
  t.is(stolen.status, 409);
  assertMatchesSchema(t, errorBody, stolen.body);

  // A message after the note: the note sits between the greeting and it.
  const asked = await chat.ask(visitor, 'Can I get a refund?');
  t.is(asked.status, 200);
  const read = await as(bob).get(path);
  t.is(read.status, 200);
  assertMatchesSchema(t, agentConversationResponse, read.body);
  const order = read.body.messages.map((message: { id: string }) => message.id);
  t.is(order[0], 'greeting');
  t.is(order[1], noteId, 'the note in time order, before the question asked after it');
  t.true(order.length >= 4);
  t.is(read.body.messages.filter((message: { private?: boolean }) => message.private).length, 1);

  const listed = await as(bob).get(`${path}/notes`);
  assertMatchesSchema(t, noteListResponse, listed.body);
  t.deepEqual(
    listed.body.notes.map((note: { id: string }) => note.id),
    [noteId],
  );

  // Everything the visitor reads: the history, and the widget's stream up to the agent taking over.
  const history = await chat.history(visitor);
  t.is(history.status, 200);
  t.false(JSON.stringify(history.body).includes('Secret'), 'not in the chat history');
  t.false(history.body.messages.some((message: { id: string }) => message.id === noteId));
  t.is((await as(ada).post(`${path}/take-over`)).status, 200);
  const seen = await widgetEvents;
  t.true(
    seen.some((event) => event.event === 'status'),
    'the widget stream ran past the note',
  );
  t.false(JSON.stringify(seen).includes('Secret'), 'not on the widget stream');
});

test('notes are allowed on a closed conversation and whoever has it; bad payloads are 400, other tenants 403', async (t) => {
  const { chat, ada, bob } = await team();
  const visitor = await chat.start();
  const path = `/agent/conversations/${visitor.conversationId}`;
  t.is((await as(ada).post(`${path}/take-over`)).status, 200);
  t.is((await as(bob).post(`${path}/notes`, { text: 'Bob here: Ada has it' })).status, 201, 'not only the agent who has it');
  t.is((await as(ada).post(`${path}/close`)).status, 200);
  const closed = await as(bob).post(`${path}/notes`, { text: 'Closed, follow up next week' });
  t.is(closed.status, 201, 'a closed conversation takes notes');

  for (const body of [
    {},
    { text: '' },
    { text: '  \n ' },
    { text: 'x'.repeat(4097) },
    { text: 'hi', noteId: 'nope' },
    { text: 'hi', mentions: 'bob' },
    { text: 'hi', mentions: ['not-a-uuid'] },
    { text: 'hi', mentions: [bob.id, bob.id] },
    { text: 'hi', extra: 1 },
  ]) {
    const invalid = await as(ada).post(`${path}/notes`, body);
    t.is(invalid.status, 400, JSON.stringify(body).slice(0, 60));
    t.is(invalid.body.error.code, 'invalid_payload');
  }
  const malformed = await api.request('POST', `${path}/notes`, {
    headers: { ...ada.headers, 'content-type': 'application/json' },
    body: '{"text":',
  });
  t.is(malformed.status, 400);

  // Another tenant's people: 403 on the conversation's notes, whichever route; an unknown one: 404.
  const other = await team();
  for (const response of [
    await as(other.ada).post(`${path}/notes`, { text: 'peek' }),
    await as(other.ada).get(`${path}/notes`),
    await as(other.ada).get(path),
  ]) {
    t.is(response.status, 403);
    assertMatchesSchema(t, errorBody, response.body);
  }
  t.is((await as(ada).get(`/agent/conversations/${randomUUID()}/notes`)).status, 404);
  t.is((await as(ada).post('/agent/conversations/not-an-id/notes', { text: 'x' })).status, 404);
  t.is((await api.request('GET', `${path}/notes`)).status, 401, 'a token is needed');
  t.deepEqual(
    (await as(ada).get(`${path}/notes`)).body.notes.map((note: { text: string }) => note.text),
    ['Bob here: Ada has it', 'Closed, follow up next week'],
    "the other tenant's note was not stored",
  );
});

test('a mention notifies the colleague at once on their inbox stream, and is kept until read', async (t) => {
  const { chat, ada, bob, admin } = await team();
  const other = await team();
  const visitor = await chat.start();
  const path = `/agent/conversations/${visitor.conversationId}`;

  const bobInbox = await openStream('/agent/events', bob.headers);
  const first = await bobInbox.waitFor((event) => event.event === 'notifications');
  t.deepEqual(first.data, { notifications: [], unread: 0 });

  // Mentioned by name in the text, and the admin by id; Ada mentioning herself is no notification.
  const written = await as(ada).post(`${path}/notes`, { text: '@Bob Marley can you take this? @Ada', mentions: [admin.id] });
  t.is(written.status, 201);
  t.deepEqual(written.body.mentions.map((person: { userId: string }) => person.userId).sort(), [admin.id, bob.id, ada.id].sort());
  const live = await bobInbox.waitFor((event) => event.event === 'notification');
  t.like(live.data, {
    type: 'mention',
    conversationId: visitor.conversationId,
    noteId: written.body.id,
    by: { userId: ada.id, name: 'Ada' },
    excerpt: '@Bob Marley can you take this? @Ada',
    read: false,
  });
  await bobInbox.close();
  await subscribersGone(t, `agent-notifications-live:${bob.id}`);

  const listed = await as(bob).get('/agent/notifications');
  t.is(listed.status, 200);
  assertMatchesSchema(t, notificationListResponse, listed.body);
  t.is(listed.body.unread, 1);
  t.is(listed.body.notifications[0].id, live.data.id);
  t.is((await as(admin).get('/agent/notifications')).body.unread, 1, 'the admin, mentioned by id');
  t.is((await as(ada).get('/agent/notifications')).body.unread, 0, 'no notification of one’s own note');

  // The same note retried notifies no one twice.
  await as(ada).post(`${path}/notes`, { text: 'again', noteId: written.body.id });
  t.is((await as(bob).get('/agent/notifications')).body.notifications.length, 1);

  // By e-mail too; then read one by id, then all.
  await as(ada).post(`${path}/notes`, { text: `cc @${bob.email}` });
  t.is((await as(bob).get('/agent/notifications')).body.unread, 2);
  const readOne = await as(bob).post('/agent/notifications/read', { ids: [live.data.id] });
  t.deepEqual(readOne.body, { unread: 1 });
  const after = (await as(bob).get('/agent/notifications')).body.notifications;
  t.deepEqual(
    after.map((notification: { read: boolean }) => notification.read),
    [false, true],
    'newest first',
  );
  t.deepEqual((await as(other.ada).post('/agent/notifications/read', { ids: [after[0].id] })).body, { unread: 0 });
  t.is((await as(bob).get('/agent/notifications')).body.unread, 1, "another user cannot mark Bob's read");
  t.deepEqual((await as(bob).post('/agent/notifications/read')).body, { unread: 0 }, 'no body: all');

  // Mentions must be active users of the same tenant.
  const stranger = await as(ada).post(`${path}/notes`, { text: 'hi', mentions: [other.bob.id] });
  t.is(stranger.status, 400);
  t.is(stranger.body.error.code, 'invalid_payload');
  t.regex(stranger.body.error.message, new RegExp(other.bob.id));
  t.is(stranger.body.error.details[0].path, '/mentions/0');
  t.is((await as(other.bob).get('/agent/notifications')).body.unread, 0);
  for (const body of [{ ids: ['ntf_x'] }, { ids: 'all' }, { extra: true }])
    t.is((await as(bob).post('/agent/notifications/read', body)).status, 400, JSON.stringify(body));
});
