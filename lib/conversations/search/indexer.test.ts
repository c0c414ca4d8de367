import { randomUUID } from 'node:crypto';
import test from 'ava';
import { eventually } from '#testing/eventually.js';
import { useTestRedis } from '#testing/redis.js';
import type { ChatMessage } from '../chat-message.js';
import type { ConversationRecord } from '../records.js';
import { createSearchChanges } from './changes.js';
import type { ConversationDocument } from './documents.js';
import { createSearchIndexer } from './indexer.js';

// The indexer's loop over the real Redis change set, with the index stood in for: what it writes,
// and that a refused write loses nothing (the same loop runs against the real Weaviate in search.test.ts).

const testRedis = useTestRedis(test);
const silent = { warn: () => undefined, info: () => undefined };

function record(tenantId: string, conversationId: string): ConversationRecord {
  return {
    conversationId,
    tenantId,
    operatorId: 'op',
    knowledgeBaseId: 'kb',
    channel: 'widget',
    locale: 'en',
    status: 'ai',
    visitorTokenHash: '',
    contact: { name: 'Ada' },
    agentName: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  };
}

const message = (id: string, author: ChatMessage['author'], text: string): ChatMessage => ({
  id,
  author,
  text,
  createdAt: `2026-01-01T00:00:0${id.length}.000Z`,
  aiGenerated: author === 'ai',
});

function bed() {
  const prefix = `${testRedis.prefix}:${randomUUID().slice(0, 8)}`;
  const changes = createSearchChanges(testRedis.redis(), prefix);
  const records = new Map<string, ConversationRecord>();
  const transcripts = new Map<string, ChatMessage[]>();
  const written = new Map<string, ConversationDocument>();
  const removed: string[] = [];
  const weaviate = { down: false };
  const index = {
    async upsert(documents: ConversationDocument[]) {
      if (weaviate.down) throw new Error('Weaviate is unavailable');
      for (const document of documents) written.set(document.conversationId, document);
    },
    async remove(_tenantId: string, conversationId: string) {
      if (weaviate.down) throw new Error('Weaviate is unavailable');
      removed.push(conversationId);
    },
  };
  const indexer = createSearchIndexer({
    changes,
    index,
    records: { get: async (id) => records.get(id) },
    transcript: { read: async (id) => transcripts.get(id) ?? [] },
    logger: silent,
    idleMs: 10,
    maxRetryMs: 50,
  });
  return { changes, records, transcripts, written, removed, weaviate, indexer };
}

test('a changed conversation is written with its searchable messages; a conversation whose record is gone is removed', async (t) => {
  const { changes, records, transcripts, written, removed, indexer } = bed();
  records.set('c1', record('tenant-a', 'c1'));
  transcripts.set('c1', [
    message('g', 'system', 'Hello, how can I help?'),
    message('v1', 'visitor', 'I want a refund'),
    message('a1', 'ai', 'Refunds take five days'),
  ]);
  await changes.markChanged('tenant-a', 'c1');
  await changes.markChanged('tenant-a', 'gone');
  t.is(await indexer.indexBatch(), 2);
  t.deepEqual(written.get('c1')?.texts, ['I want a refund', 'Refunds take five days'], 'the greeting is not searched');
  t.deepEqual(removed, ['gone']);
  t.is(await changes.pending(), 0);
  t.is(await indexer.indexBatch(), 0);
});

test('while Weaviate is away nothing is lost: the loop keeps trying and indexes everything once it is back', async (t) => {
  const { changes, records, transcripts, written, weaviate, indexer } = bed();
  weaviate.down = true;
  for (const id of ['c1', 'c2']) {
    records.set(id, record('tenant-a', id));
    transcripts.set(id, [message('v1', 'visitor', `parcel ${id} lost`)]);
    await changes.markChanged('tenant-a', id);
  }
  await t.throwsAsync(indexer.indexBatch(), { message: /unavailable/ });
  t.is(await changes.pending(), 2, 'the refused batch is still marked');
  indexer.start();
  try {
    transcripts.set('c1', [...transcripts.get('c1')!, message('v22', 'visitor', 'still waiting')]);
    await changes.markChanged('tenant-a', 'c1');
    weaviate.down = false;
    await eventually(
      () => changes.pending(),
      (pending) => pending === 0,
      { timeoutMs: 10_000 },
    );
  } finally {
    await indexer.stop();
  }
  t.deepEqual(written.get('c1')?.texts, ['parcel c1 lost', 'still waiting']);
  t.deepEqual(written.get('c2')?.texts, ['parcel c2 lost']);
});
