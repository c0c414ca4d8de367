import test from 'ava';
import { Counter, Histogram } from 'prom-client';
import { createMetricsRegistry, exportedSeriesNames } from './registry.js';

test("a registry exports the process's own metrics under the prefix, and names a histogram's series", async (t) => {
  const registry = createMetricsRegistry();
  new Counter({ name: 'kb_things_total', help: 'things', registers: [registry] });
  new Histogram({ name: 'kb_wait_seconds', help: 'waits', registers: [registry] });
  const names = await exportedSeriesNames(registry);
  t.true(names.has('kb_things_total'));
  for (const suffix of ['_bucket', '_sum', '_count']) t.true(names.has(`kb_wait_seconds${suffix}`));
  t.false(names.has('kb_wait_seconds'));
  t.true(names.has('kb_process_cpu_seconds_total'), 'the Node.js process metrics come with it');
  t.true(
    [...names].every((name) => name.startsWith('kb_')),
    [...names].filter((name) => !name.startsWith('kb_')).join(', '),
  );
});
