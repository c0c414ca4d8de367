import test from 'ava';
import { polledQueues } from './task-queues.js';

const slots = { base: 16, ingest: 8, connectors: 4 };

test('a worker of every role polls the items’ queue; only embedders and the default run its activities', (t) => {
  const items = (role: 'all' | 'core' | 'embedder') =>
    polledQueues(role, 'kb', slots).find((queue) => queue.taskQueue === 'kb-ingest');
  t.deepEqual(items('all'), { taskQueue: 'kb-ingest', workflows: true, activitySlots: 8 });
  t.deepEqual(items('core'), { taskQueue: 'kb-ingest', workflows: true });
  t.deepEqual(items('embedder'), { taskQueue: 'kb-ingest', workflows: false, activitySlots: 8 });
});

test('an embedder polls nothing else; the others poll the base, the former items’ and the connectors’ queues', (t) => {
  t.deepEqual(
    polledQueues('embedder', 'kb', slots).map((queue) => queue.taskQueue),
    ['kb-ingest'],
  );
  for (const role of ['all', 'core'] as const) {
    t.deepEqual(
      polledQueues(role, 'kb', slots).map((queue) => queue.taskQueue),
      ['kb', 'kb-ingest', 'kb-ingest-high', 'kb-ingest-low', 'kb-connectors'],
    );
  }
});
