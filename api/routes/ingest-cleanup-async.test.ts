import test from 'ava';
import { importingTenant, item, startIngestionStack, untilSearchable, type IngestionStack } from '#testing/ingestion.js';
import { eventually } from '#testing/eventually.js';
import { assertMatchesSchema } from '#testing/schema.js';
import { cleanupResponse, cleanupRunningResponse } from '../schemas/ingest.js';

// A cleanup longer than CLEANUP_WAIT_SECONDS answers 202 and is followed by its id (F15); a large one
// is paged inside its workflow, the keep list and what it deleted kept in Redis (F16).
// 520 orphans (two pages) in `npm test`, as seeding is slow on a shared 2-core machine;
// `CLEANUP_ORPHANS=20000 npm test -- api/routes/ingest-cleanup-async.test.ts` runs the full size.
const orphanCount = Number(process.env.CLEANUP_ORPHANS ?? 520);

let stack: IngestionStack;
test.before(async () => {
  stack = await startIngestionStack({ CLEANUP_WAIT_SECONDS: '1', RATE_LIMIT_PER_MINUTE: '100000' });
});
test.after.always(() => stack?.close());

type Tenant = Awaited<ReturnType<typeof importingTenant>>;

async function seed(tenant: Tenant, origin: string, ids: string[]) {
  const jobIds: string[] = [];
  for (let i = 0; i < ids.length; i += 500) {
    const items = ids
      .slice(i, i + 500)
      .map((id) =>
        item(id, { title: `Item ${id}`, content: `Item ${id}.` }, { sourceOrigin: origin, options: { priority: 'low' } }),
      );
    const response = await stack.api.request('POST', '/ingest/bulk', { body: { items }, headers: tenant.headers });
    if (response.status !== 200) throw new Error(`bulk answered ${response.status}`);
    jobIds.push(...response.body.jobIds);
  }
  await untilSearchable(stack.api, tenant.headers, jobIds, 60 * 60_000);
}

const cleanup = (tenant: Tenant, body: unknown) =>
  stack.api.request('POST', '/ingest/cleanup', { body, headers: tenant.headers });
const follow = (tenant: Tenant, statusUrl: string) => stack.api.request('GET', statusUrl, { headers: tenant.headers });

test.serial(
  'past its wait a cleanup answers 202; the same request attaches to it; its status URL answers the result',
  async (t) => {
    const tenant = await importingTenant(stack.api);
    const neighbour = await importingTenant(stack.api);
    await seed(tenant, 'cms', ['a', 'b', 'c']);
    await stack.stopWorker();
    let running;
    try {
      const request = { sourceOrigin: 'cms', keepExternalIds: ['a'] };
      running = await cleanup(tenant, request);
      t.is(running.status, 202);
      assertMatchesSchema(t, cleanupRunningResponse, running.body);
      t.is(running.headers.get('location'), running.body.statusUrl);
      t.is(running.headers.get('retry-after'), '5');

      const again = await cleanup(tenant, { sourceOrigin: 'cms', keepExternalIds: ['a', 'a'] });
      t.is(again.status, 202);
      t.is(again.body.cleanupId, running.body.cleanupId, 'the same request names the same cleanup');
      t.not((await cleanup(tenant, { sourceOrigin: 'blog', keepExternalIds: ['a'] })).body.cleanupId, running.body.cleanupId);

      t.is((await follow(tenant, running.body.statusUrl)).status, 202);
      const elsewhere = await follow(neighbour, running.body.statusUrl);
      t.is(elsewhere.status, 404, "another tenant's cleanup is unknown");
      t.is((await follow(tenant, '/ingest/cleanups/unknown')).status, 404);
    } finally {
      await stack.startWorker();
    }
    const done = await eventually(
      () => follow(tenant, running.body.statusUrl),
      (response) => response.status === 200,
      { timeoutMs: 120_000, intervalMs: 500 },
    );
    assertMatchesSchema(t, cleanupResponse, done.body);
    t.is(done.body.deleted, 2);
    t.deepEqual([...done.body.orphanedExternalIds].sort(), ['b', 'c']);
  },
);

test.serial(`a cleanup of ${orphanCount} orphans deletes them all, a page at a time, and answers every id once`, async (t) => {
  t.timeout(Math.max(10, orphanCount / 20) * 60_000, 'seeding and cleaning up on a shared machine');
  const tenant = await importingTenant(stack.api);
  const ids = Array.from({ length: orphanCount + 10 }, (_, i) => `p${i}`);
  await seed(tenant, 'catalogue', ids);
  const keep = ids.slice(0, 10);

  const started = await cleanup(tenant, { sourceOrigin: 'catalogue', keepExternalIds: keep });
  const done =
    started.status === 200
      ? started
      : await eventually(
          () => follow(tenant, started.body.statusUrl),
          (response) => response.status !== 202,
          { timeoutMs: 60 * 60_000, intervalMs: 1_000 },
        );
  t.is(done.status, 200);
  t.is(done.body.deleted, orphanCount);
  t.deepEqual([...done.body.orphanedExternalIds].sort(), ids.slice(10).sort());

  const again = await cleanup(tenant, { sourceOrigin: 'catalogue', keepExternalIds: keep });
  t.deepEqual(again.body, { deleted: 0, orphanedExternalIds: [] }, 'run again once over: nothing is left to delete');
  const job = await stack.api.request('GET', `/ingest/jobs/shop-${ids.at(-1)}`, { headers: tenant.headers });
  t.is(job.body.status, 'deleted');
});
