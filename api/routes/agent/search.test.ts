import test from 'ava';
import { chattingTenant, conversationAboutReturns } from '#testing/chat.js';
import { createUser } from '#testing/api.js';
import { eventually } from '#testing/eventually.js';
import { startIngestionStack, type IngestionStack } from '#testing/ingestion.js';
import { assertMatchesSchema } from '#testing/schema.js';
import { errorBody } from '#api/schemas/common.js';
import { searchResponse, similarResponse } from '#api/schemas/search.js';

/*
 * GET /agent/search and GET /agent/conversations/{id}/similar through the real API and worker: the
 * conversation's messages are recorded by its workflow, the worker's indexer writes them to Weaviate,
 * and the API finds them.
 */

let stack: IngestionStack;
test.before(async () => {
  stack = await startIngestionStack({ CHAT_VISITOR_PER_MINUTE: '1000' });
});
test.after.always(() => stack?.close());

type Headers = Record<string, string>;
const get = (headers: Headers, path: string) => stack.api.request('GET', path, { headers });
const resultIds = (response: { body: { results: Array<{ conversation: { conversationId: string } }> } }) =>
  response.body.results.map((result) => result.conversation.conversationId);

/** Searches until the search finds `count` conversations (the index follows the transcript within seconds). */
const searchUntil = (headers: Headers, query: string, count = 1) =>
  eventually(
    () => get(headers, `/agent/search?${query}`),
    (response) => response.status === 200 && response.body.results.length === count,
    { timeoutMs: 60_000, intervalMs: 250 },
  );

test('a refund conversation is found by the visitor’s, the AI’s and the agent’s words, with filters and stable pages', async (t) => {
  const api = stack.api;
  const { chat, visitor, ref } = await conversationAboutReturns(api);
  const { tenantId } = ref;
  const ada = await createUser(api, tenantId, 'agent', 'Ada');
  const admin = await createUser(api, tenantId, 'admin', 'Alex');

  const asked = await chat.ask(visitor, 'How long do I have to return an item?');
  t.is(asked.status, 200);
  t.regex(asked.reply.text, /unused item within 30 days of delivery for a full refund/);
  t.is((await chat.ask(visitor, 'My kettle arrived broken, I want a refund')).status, 200);
  const path = `/agent/conversations/${visitor.conversationId}`;
  t.is((await api.request('POST', `${path}/take-over`, { headers: ada.headers })).status, 200);
  t.is(
    (
      await api.request('POST', `${path}/messages`, {
        headers: ada.headers,
        body: { text: 'I have issued the refund to your Visa card.' },
      })
    ).status,
    202,
  );

  // The agent's reply, recorded a moment ago, becomes searchable.
  const byAgent = await searchUntil(ada.headers, 'q=visa');
  assertMatchesSchema(t, searchResponse, byAgent.body);
  t.deepEqual(resultIds(byAgent), [visitor.conversationId]);
  const [hit] = byAgent.body.results;
  t.like(hit.conversation, { conversationId: visitor.conversationId, status: 'agent', agentName: 'Ada', channel: 'widget' });
  t.like(hit.matches[0], { author: 'agent', agentName: 'Ada' });
  t.is(hit.matches[0].snippet.slice(hit.matches[0].highlights[0].start, hit.matches[0].highlights[0].end), 'Visa');
  t.is(byAgent.body.nextCursor, null);

  const authors = async (query: string) =>
    (await get(admin.headers, `/agent/search?q=${query}`)).body.results.flatMap(
      (result: { matches: Array<{ author: string }> }) => result.matches.map((match) => match.author),
    );
  t.deepEqual(await authors('kettle'), ['visitor'], "the visitor's words; admins search too");
  t.deepEqual(await authors('unused%20delivery'), ['ai'], "the AI's words");
  t.deepEqual(await authors('refund'), ['ai', 'visitor', 'agent'], 'in conversation order');

  const found = async (filters: string) => resultIds(await get(ada.headers, `/agent/search?q=refund&${filters}`));
  const hour = 3600_000;
  t.deepEqual(await found('status=agent'), [visitor.conversationId]);
  t.deepEqual(await found('status=closed'), []);
  t.deepEqual(await found('channel=widget'), [visitor.conversationId]);
  t.deepEqual(await found('channel=messaging'), []);
  t.deepEqual(await found(`agentId=${ada.id}`), [visitor.conversationId]);
  t.deepEqual(await found(`agentId=${admin.id}`), []);
  t.deepEqual(await found('teamId=no-such-team'), []);
  t.deepEqual(await found(`from=${new Date(Date.now() - hour).toISOString()}&to=${new Date(Date.now() + hour).toISOString()}`), [
    visitor.conversationId,
  ]);
  t.deepEqual(await found(`from=${new Date(Date.now() + hour).toISOString()}`), []);
  t.deepEqual(await found('rating=5'), []);

  // A second refund conversation: two results, one a page; the cursor reads on.
  const second = await chat.start();
  t.is((await chat.ask(second, 'Refund for a damaged lamp?')).status, 200);
  const all = await searchUntil(ada.headers, 'q=refund', 2);
  const page1 = await get(ada.headers, '/agent/search?q=refund&limit=1');
  t.truthy(page1.body.nextCursor);
  const page2 = await get(ada.headers, `/agent/search?q=refund&limit=1&cursor=${page1.body.nextCursor}`);
  t.is(page2.status, 200);
  t.deepEqual([...resultIds(page1), ...resultIds(page2)].sort(), resultIds(all).sort());
  t.is(page2.body.nextCursor, null);

  // Similar conversations: the other refund question.
  const similar = await get(ada.headers, `${path}/similar`);
  t.is(similar.status, 200);
  assertMatchesSchema(t, similarResponse, similar.body);
  t.deepEqual(
    similar.body.similar.map((conversation: { conversationId: string }) => conversation.conversationId),
    [second.conversationId],
  );

  // Another tenant: finds nothing of this one's, and may not read on through its cursor or ask for its similar ones.
  const other = await chattingTenant(api);
  const stranger = await createUser(api, other.tenant.id as string, 'agent', 'Sam');
  t.deepEqual(resultIds(await get(stranger.headers, '/agent/search?q=refund')), []);
  t.deepEqual(resultIds(await get(stranger.headers, '/agent/search?q=kettle')), []);
  const borrowed = await get(stranger.headers, `/agent/search?q=refund&limit=1&cursor=${page1.body.nextCursor}`);
  t.is(borrowed.status, 400);
  assertMatchesSchema(t, errorBody, borrowed.body);
  t.is(borrowed.body.error.code, 'cursor_expired');
  t.is((await get(stranger.headers, `${path}/similar`)).status, 403);
});

test('refusals: no token 401; invalid parameters 400 in the one error shape; unknown conversation 404', async (t) => {
  const api = stack.api;
  const tenant = await chattingTenant(api);
  const ada = await createUser(api, tenant.tenant.id as string, 'agent', 'Ada');
  const anonymous = await api.request('GET', '/agent/search?q=refund');
  t.is(anonymous.status, 401);
  t.is(
    (await api.request('GET', '/agent/search?q=refund', { headers: tenant.headers })).status,
    401,
    'an API key is no user token',
  );

  for (const query of [
    '',
    'q=',
    `q=${'x'.repeat(201)}`,
    'q=a&q=b',
    'q=refund&limit=0',
    'q=refund&limit=51',
    'q=refund&limit=many',
    'q=refund&status=open',
    'q=refund&channel=sms',
    'q=refund&rating=6',
    'q=refund&rating=0',
    'q=refund&from=yesterday',
    'q=refund&to=2026-13-01',
    'q=refund&cursor=!!',
    'q=refund&colour=red',
  ]) {
    const refused = await get(ada.headers, `/agent/search?${query}`);
    t.is(refused.status, 400, query);
    assertMatchesSchema(t, errorBody, refused.body);
    t.is(refused.body.error.code, 'invalid_payload', query);
  }
  const unknownCursor = await get(ada.headers, '/agent/search?q=refund&cursor=bm90LWEtY3Vyc29y');
  t.is(unknownCursor.status, 400);
  t.is(unknownCursor.body.error.code, 'invalid_payload');
  t.is(unknownCursor.body.error.details[0].path, '/cursor');

  t.is((await get(ada.headers, '/agent/conversations/00000000-0000-4000-8000-000000000000/similar')).status, 404);
  t.is((await get(ada.headers, '/agent/conversations/not-an-id/similar')).status, 404);
  t.is((await get(ada.headers, '/agent/conversations/00000000-0000-4000-8000-000000000000/similar?limit=21')).status, 400);
});
