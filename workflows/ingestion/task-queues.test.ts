import test from 'ava';
import { ingestPriorityKeys, taskPriority } from './task-queues.js';
import type { IngestOperation, ItemOperation } from './types.js';

const ingest = (lane: IngestOperation['lane'], priority?: 'high' | 'low'): ItemOperation => ({
  kind: 'ingest',
  knowledgeBaseId: 'kb',
  sourceType: 'PAGE',
  sourceOrigin: null,
  data: { title: 't', content: 'c' },
  options: priority ? { priority } : {},
  ...(lane ? { lane } : {}),
});

test("a person's change goes first, then imports by their priority, then cleanups and re-indexes; the tenant is the fairness key", (t) => {
  const key = (operation: ItemOperation) => taskPriority('tenant-1', operation).priorityKey;
  t.is(key(ingest('interactive')), ingestPriorityKeys.interactive);
  t.is(key(ingest('interactive', 'high')), 1);
  t.is(key(ingest('bulk')), 3, 'an import given no priority is high');
  t.is(key(ingest('bulk', 'high')), 3);
  t.is(key(ingest('bulk', 'low')), 4);
  t.is(key(ingest(undefined)), 3, 'a version accepted before lanes was an import');
  t.is(key({ kind: 'delete', knowledgeBaseId: 'kb', sourceOrigin: 'o', lane: 'interactive' }), 1);
  t.is(key({ kind: 'delete', knowledgeBaseId: 'kb', sourceOrigin: 'o', lane: 'bulk' }), 4);
  t.is(key({ kind: 'reembed', knowledgeBaseId: 'kb' }), 5);
  t.is(taskPriority('tenant-1', ingest('bulk')).fairnessKey, 'tenant-1');
});
