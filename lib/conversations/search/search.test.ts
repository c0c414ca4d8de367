import { randomUUID } from 'node:crypto';
import test from 'ava';
import { createWeaviateClient, type WeaviateClient } from '#platform/weaviate.js';
import { testConfig } from '#testing/config.js';
import { eventually } from '#testing/eventually.js';
import { useTestRedis } from '#testing/redis.js';
import type { ChatMessage } from '../chat-message.js';
import { createConversationRecords, type ConversationRecord } from '../records.js';
import { createTranscript } from '../transcript.js';
import { createSearchChanges } from './changes.js';
import { createConversationSearch, InvalidCursorError } from './conversation-search.js';
import { conversationExtras } from './extras.js';
import { createSearchIndexer } from './indexer.js';
import { createConversationSearchIndex, type ConversationSearchIndex } from './search-index.js';

// Against the real Redis and Weaviate: conversations written as the service writes them (records,
// transcripts), marked changed, indexed by the indexer, and found by the search, each test in
// tenants of its own (one Weaviate tenant each, removed after).

const testRedis = useTestRedis(test);
let weaviate: WeaviateClient;
let unreachable: WeaviateClient;
const tenants: string[] = [];
const silent = { warn: () => undefined, info: () => undefined };

test.before(async () => {
  const config = testConfig().weaviate;
  weaviate = await createWeaviateClient(config);
  // Nothing listens there: Weaviate as it is while it is stopped.
  unreachable = await createWeaviateClient({ ...config, url: 'http://127.0.0.1:9', grpcPort: 9 });
});
test.after.always(async () => {
  if (!weaviate) return;
  await createConversationSearchIndex(weaviate).removeTenants(tenants);
  await weaviate.close();
  await unreachable?.close();
});

function bed(index: Pick<ConversationSearchIndex, 'upsert' | 'remove'> = createConversationSearchIndex(weaviate)) {
  const redis = testRedis.redis();
  const prefix = `${testRedis.prefix}:${randomUUID().slice(0, 8)}`;
  let clock = Date.parse('2026-03-01T09:00:00.000Z');
  const at = () => new Date((clock += 60_000)).toISOString();
  const records = createConversationRecords(redis, prefix, () => new Date(clock));
  const transcript = createTranscript(redis, prefix);
  const changes = createSearchChanges(redis, prefix);
  const notes = new Map<
    string,
    Array<{ id: string; text: string; createdAt: string; author: { userId: string; name: string } }>
  >();
  const scores = new Map<string, number>();
  const indexer = createSearchIndexer({
    changes,
    index,
    records,
    transcript,
    extras: conversationExtras({
      notes: { list: async (id) => (notes.get(id) ?? []).map((note) => ({ ...note, conversationId: id, mentions: [] })) },
      satisfactionOf: async (id) => (scores.has(id) ? { score: scores.get(id)! } : null),
    }),
    logger: silent,
    idleMs: 20,
    maxRetryMs: 200,
  });
  const search = createConversationSearch({ redis, prefix, index: createConversationSearchIndex(weaviate), records });
  const tenant = () => {
    const id = randomUUID();
    tenants.push(id);
    return id;
  };

  /** A conversation as the service writes it: its record, its messages appended, each marking it changed. */
  async function conversation(
    tenantId: string,
    messages: Array<[ChatMessage['author'], string]>,
    fields: Partial<ConversationRecord> & { teamId?: string; assigneeId?: string } = {},
  ): Promise<string> {
    const conversationId = randomUUID();
    await records.create({
      conversationId,
      tenantId,
      operatorId: 'op-1',
      knowledgeBaseId: 'kb-1',
      channel: 'widget',
      locale: 'en',
      visitorTokenHash: '',
      contact: { name: 'Grace Hopper', email: 'grace@example.com' },
    });
    // Fields the search filters on that the record gains over the conversation's life.
    const { status, agentId, agentName, teamId, assigneeId, channel } = fields;
    const hash: Record<string, string> = {
      ...(status ? { status } : {}),
      ...(agentId ? { agentId } : {}),
      ...(agentName ? { agentName } : {}),
      ...(teamId ? { teamId } : {}),
      ...(assigneeId ? { assigneeId } : {}),
      ...(channel ? { channel } : {}),
    };
    if (Object.keys(hash).length > 0) await redis.hSet(`${prefix}:conversation:${conversationId}`, hash);
    await transcript.append(conversationId, {
      id: 'greeting',
      author: 'system',
      text: 'Hi! How can we help?',
      createdAt: at(),
      aiGenerated: false,
    });
    for (const [i, [author, text]] of messages.entries())
      await say(tenantId, conversationId, {
        id: `m${i}`,
        author,
        text,
        createdAt: at(),
        aiGenerated: author === 'ai',
        ...(author === 'agent' ? { agent: { name: 'Ada' } } : {}),
      });
    return conversationId;
  }

  async function say(tenantId: string, conversationId: string, message: ChatMessage) {
    await transcript.append(conversationId, message);
    await changes.markChanged(tenantId, conversationId);
  }

  /** Indexes everything marked so far. */
  async function indexAll() {
    while ((await indexer.indexBatch()) > 0);
  }

  return { redis, prefix, records, transcript, changes, indexer, search, tenant, conversation, say, indexAll, notes, scores, at };
}

const ids = (page: { hits: Array<{ record: { conversationId: string } }> }) => page.hits.map((hit) => hit.record.conversationId);
const find = (search: ReturnType<typeof bed>['search'], tenantId: string, query: string, filters = {}, limit = 20) =>
  search.search(tenantId, { query, filters, limit });

test('a refund conversation is found by the words of the visitor, the AI, an agent and a private note, with snippets', async (t) => {
  const { search, tenant, conversation, indexAll, notes } = bed();
  const tenantId = tenant();
  const refund = await conversation(tenantId, [
    ['visitor', 'My kettle arrived broken, I would like a refund please'],
    ['ai', 'You can return any unused item within 30 days of delivery for a full refund.'],
    ['agent', 'I have issued the refund to your Visa card ending 4242.'],
  ]);
  const other = await conversation(tenantId, [['visitor', 'Do you ship to Norway?']]);
  notes.set(refund, [
    {
      id: 'n1',
      text: 'Escalated to the warehouse supervisor',
      createdAt: '2026-03-01T12:00:00.000Z',
      author: { userId: 'u1', name: 'Bob' },
    },
  ]);
  await indexAll();

  for (const [query, author] of [
    ['kettle', 'visitor'],
    ['unused delivery', 'ai'],
    ['Visa card', 'agent'],
    ['supervisor', 'note'],
  ] as const) {
    const page = await find(search, tenantId, query);
    t.deepEqual(ids(page), [refund], query);
    t.is(page.hits[0]!.matches[0]!.author, author, query);
  }
  const page = await find(search, tenantId, 'REFUND');
  t.deepEqual(ids(page), [refund]);
  t.deepEqual(
    page.hits[0]!.matches.map((match) => [
      match.author,
      match.snippet.slice(match.highlights[0]!.start, match.highlights[0]!.end),
    ]),
    [
      ['visitor', 'refund'],
      ['ai', 'refund'],
      ['agent', 'refund'],
    ],
  );
  t.is(page.nextCursor, null);
  t.deepEqual(ids(await find(search, tenantId, 'Norway')), [other]);
  t.deepEqual(ids(await find(search, tenantId, 'grace hopper')).sort(), [refund, other].sort(), "the contact's name too");
  t.deepEqual(ids(await find(search, tenantId, 'refund Norway')), [], 'every word must be there');
  t.deepEqual(ids(await find(search, tenantId, 'help')), [], 'the greeting is not searched');
  t.deepEqual(ids(await find(search, tenantId, '?!')), [], 'a query without words finds nothing');
});

test('filters: status, channel, team, agent, dates and rating', async (t) => {
  const { search, tenant, conversation, indexAll, scores } = bed();
  const tenantId = tenant();
  const waiting = await conversation(tenantId, [['visitor', 'parcel missing']], {
    status: 'waiting_for_agent',
    teamId: 'team-billing',
  });
  const withAda = await conversation(tenantId, [['visitor', 'parcel damaged']], {
    status: 'agent',
    agentId: 'user-ada',
    agentName: 'Ada',
  });
  const assigned = await conversation(tenantId, [['visitor', 'parcel late']], {
    status: 'closed',
    assigneeId: 'user-ada',
    channel: 'messaging',
  });
  scores.set(assigned, 5);
  await indexAll();

  const found = async (filters: object) => ids(await find(search, tenantId, 'parcel', filters)).sort();
  t.deepEqual(await found({}), [waiting, withAda, assigned].sort());
  t.deepEqual(await found({ status: 'waiting_for_agent' }), [waiting]);
  t.deepEqual(await found({ channel: 'messaging' }), [assigned]);
  t.deepEqual(await found({ teamId: 'team-billing' }), [waiting]);
  t.deepEqual(await found({ agentId: 'user-ada' }), [withAda, assigned].sort(), 'who has it or is assigned it');
  t.deepEqual(await found({ rating: 5 }), [assigned]);
  t.deepEqual(await found({ rating: 1 }), []);
  t.deepEqual(await found({ from: new Date('2026-03-01T09:04:00.000Z') }), [withAda, assigned].sort(), 'active on or after');
  // Started 09:00, 09:02 and 09:04, each active until two minutes later.
  t.deepEqual(await found({ to: new Date('2026-03-01T09:01:00.000Z') }), [waiting], 'started on or before');
  t.deepEqual(
    await found({ from: new Date('2026-03-01T09:03:00.000Z'), to: new Date('2026-03-01T09:03:00.000Z') }),
    [withAda],
    'active across the range',
  );
  t.deepEqual(await found({ status: 'agent', agentId: 'user-ada', channel: 'widget' }), [withAda]);
});

test('pages stay stable while new conversations arrive and old ones change; a cursor is for its own tenant only', async (t) => {
  const { search, tenant, conversation, say, indexAll, at } = bed();
  const tenantId = tenant();
  const first: string[] = [];
  for (let i = 0; i < 7; i++)
    first.push(await conversation(tenantId, [['visitor', `order ${i}: the refund has not arrived${' yet'.repeat(i)}`]]));
  await indexAll();

  const page1 = await find(search, tenantId, 'refund', {}, 3);
  t.is(page1.hits.length, 3);
  t.truthy(page1.nextCursor);
  // Meanwhile: five new conversations about refunds, and one of the first page's mentions refunds again.
  for (let i = 0; i < 5; i++) await conversation(tenantId, [['visitor', 'refund refund refund, where is my refund']]);
  await say(tenantId, first[6]!, {
    id: 'again',
    author: 'visitor',
    text: 'refund refund refund!',
    createdAt: at(),
    aiGenerated: false,
  });
  await indexAll();

  const page2 = await search.search(tenantId, { query: 'ignored', filters: {}, limit: 3, cursor: page1.nextCursor! });
  const page3 = await search.search(tenantId, { query: 'ignored', filters: {}, limit: 3, cursor: page2.nextCursor! });
  t.is(page3.nextCursor, null);
  const seen = [...ids(page1), ...ids(page2), ...ids(page3)];
  t.is(seen.length, 7);
  t.deepEqual([...seen].sort(), [...first].sort(), 'every conversation of the first query once, none of the new ones');
  t.true(
    page2.hits.every((hit) => hit.matches.some((match) => /refund/i.test(match.snippet))),
    "snippets of the first query's words",
  );

  const stranger = tenant();
  await t.throwsAsync(search.search(stranger, { query: 'refund', filters: {}, limit: 3, cursor: page1.nextCursor! }), {
    instanceOf: InvalidCursorError,
  });
  await t.throwsAsync(search.search(tenantId, { query: 'refund', filters: {}, limit: 3, cursor: 'bm90LWEtY3Vyc29y' }), {
    instanceOf: InvalidCursorError,
  });
});

test("another tenant's conversations are never found", async (t) => {
  const { search, tenant, conversation, indexAll, records } = bed();
  const mine = tenant();
  const theirs = tenant();
  const secret = await conversation(theirs, [['visitor', 'zanzibar invoice question']]);
  await indexAll();
  t.deepEqual(ids(await find(search, mine, 'zanzibar')), []);
  t.deepEqual(ids(await find(search, theirs, 'zanzibar')), [secret]);
  const record = (await records.get(secret))!;
  t.deepEqual(await search.similar({ ...record, tenantId: mine }, 5), []);
});

test('similar conversations: the ones whose visitors wrote alike, itself left out', async (t) => {
  const { search, tenant, conversation, indexAll, records } = bed();
  const tenantId = tenant();
  const kettle = await conversation(tenantId, [['visitor', 'my kettle leaks water from the bottom']]);
  const alike = await conversation(tenantId, [['visitor', 'the kettle I bought leaks water']]);
  await conversation(tenantId, [['visitor', 'where is my invoice']]);
  await indexAll();
  const similar = await search.similar((await records.get(kettle))!, 5);
  t.is(similar[0]?.conversationId, alike);
  t.false(similar.some((record) => record.conversationId === kettle));
});

test('a message recorded is searchable shortly after, through the running indexer', async (t) => {
  const { search, tenant, conversation, say, indexer, at } = bed();
  const tenantId = tenant();
  indexer.start();
  try {
    const id = await conversation(tenantId, [['visitor', 'hello there']]);
    await say(tenantId, id, {
      id: 'late',
      author: 'visitor',
      text: 'my toaster caught fire',
      createdAt: at(),
      aiGenerated: false,
    });
    const page = await eventually(
      () => find(search, tenantId, 'toaster'),
      (found) => found.hits.length === 1,
      { timeoutMs: 30_000 },
    );
    t.deepEqual(ids(page), [id]);
  } finally {
    await indexer.stop();
  }
});

test('while Weaviate is unreachable messages are still recorded, and become searchable once it answers again', async (t) => {
  const index = { current: createConversationSearchIndex(unreachable), refused: 0 };
  const switchable = {
    upsert: (...args: Parameters<ConversationSearchIndex['upsert']>) =>
      index.current.upsert(...args).catch((error: unknown) => {
        index.refused++;
        throw error;
      }),
    remove: (...args: Parameters<ConversationSearchIndex['remove']>) => index.current.remove(...args),
  };
  const { search, tenant, conversation, changes, indexer, transcript } = bed(switchable);
  const tenantId = tenant();
  indexer.start();
  try {
    const id = await conversation(tenantId, [['visitor', 'the blender is too loud']]);
    t.is((await transcript.read(id)).length, 2, 'recorded whatever Weaviate does');
    await eventually(
      async () => index.refused,
      (refused) => refused >= 2,
      { timeoutMs: 30_000 },
    );
    t.is(await changes.pending(), 1, 'still marked after the refused tries');
    index.current = createConversationSearchIndex(weaviate);
    await eventually(
      () => find(search, tenantId, 'blender'),
      (found) => found.hits.length === 1,
      { timeoutMs: 30_000 },
    );
    t.is(await changes.pending(), 0);
  } finally {
    await indexer.stop();
  }
});
