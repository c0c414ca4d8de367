import test from 'ava';
import {
  importingTenant,
  item,
  startIngestionStack,
  untilSearchable,
  waitForJobs,
  type IngestionStack,
} from '#testing/ingestion.js';
import { assertMatchesSchema } from '#testing/schema.js';
import { cleanupResponse } from '../schemas/ingest.js';

let stack: IngestionStack;
test.before(async () => {
  stack = await startIngestionStack();
});
test.after.always(() => stack?.close());

type Tenant = Awaited<ReturnType<typeof importingTenant>>;

/** Ingests `ids` of one origin and waits until all are searchable. */
async function seed(tenant: Tenant, origin: string, ids: string[], extra: Record<string, unknown> = {}) {
  const items = ids.map((id) =>
    item(id, { title: `Page ${id}`, content: `Content of page ${id} from ${origin}.` }, { sourceOrigin: origin, ...extra }),
  );
  const response = await stack.api.request('POST', '/ingest/bulk', { body: { items }, headers: tenant.headers });
  await untilSearchable(stack.api, tenant.headers, response.body.jobIds);
}

async function cleanup(tenant: Tenant, body: Record<string, unknown>) {
  return stack.api.request('POST', '/ingest/cleanup', { body, headers: tenant.headers });
}

async function externalIds(tenant: Tenant, q: string, kb = tenant.kb): Promise<string[]> {
  const response = await stack.api.request('GET', `/knowledge-bases/${kb}/search?q=${encodeURIComponent(q)}&limit=50`, {
    headers: tenant.headers,
  });
  return (response.body.results as Array<{ externalId: string }>).map((r) => r.externalId).sort();
}

test('cleanup deletes the sources of the origin that are not kept, and only those', async (t) => {
  const tenant = await importingTenant(stack.api);
  await seed(tenant, 'cms', ['a', 'b', 'c', 'd']);
  await seed(tenant, 'shop', ['s1', 's2']);

  const response = await cleanup(tenant, { sourceOrigin: 'cms', keepExternalIds: ['a', 'c', 'not-there'] });
  t.is(response.status, 200);
  assertMatchesSchema(t, cleanupResponse, response.body);
  t.is(response.body.deleted, 2);
  t.deepEqual([...response.body.orphanedExternalIds].sort(), ['b', 'd']);

  t.deepEqual(await externalIds(tenant, 'content of page'), ['a', 'c', 's1', 's2']);
  const job = await stack.api.request('GET', '/ingest/jobs/shop-b', { headers: tenant.headers });
  t.is(job.body.status, 'deleted');

  const again = await cleanup(tenant, { sourceOrigin: 'cms', keepExternalIds: ['a', 'c'] });
  t.deepEqual(again.body, { deleted: 0, orphanedExternalIds: [] });
});

test('an empty keep list deletes every source of the origin; other tenants are untouched', async (t) => {
  const tenant = await importingTenant(stack.api);
  const neighbour = await importingTenant(stack.api);
  await seed(tenant, 'blog', ['p1', 'p2', 'p3']);
  await seed(neighbour, 'blog', ['p1', 'p2']);

  const response = await cleanup(tenant, { sourceOrigin: 'blog', keepExternalIds: [] });
  t.is(response.body.deleted, 3);
  t.deepEqual(await externalIds(tenant, 'content of page'), []);
  t.deepEqual(await externalIds(neighbour, 'content of page'), ['p1', 'p2']);
});

test('cleanup is scoped to one knowledge base, and runs safely beside an import of the same origin', async (t) => {
  const tenant = await importingTenant(stack.api);
  const other = (await stack.api.admin('POST', `/admin/tenants/${tenant.tenant.id}/knowledge-bases`, { name: 'Other' })).body
    .id as string;
  await seed(tenant, 'wiki', ['w1', 'w2', 'w3']);
  await seed(tenant, 'wiki', ['x1'], { knowledgeBaseId: other });

  // Re-import the kept items while cleaning up: both must finish, nothing half-deleted.
  const reimport = stack.api.request('POST', '/ingest/bulk', {
    body: {
      items: ['w1', 'w2'].map((id) =>
        item(id, { title: `Page ${id}`, content: `Fresh content of page ${id}.` }, { sourceOrigin: 'wiki' }),
      ),
    },
    headers: tenant.headers,
  });
  const [cleaned, reimported] = await Promise.all([
    cleanup(tenant, { sourceOrigin: 'wiki', keepExternalIds: ['w1', 'w2'] }),
    reimport,
  ]);
  t.deepEqual(cleaned.body.orphanedExternalIds, ['w3']);
  await waitForJobs(stack.api, tenant.headers, reimported.body.jobIds);

  t.deepEqual(await externalIds(tenant, 'content of page'), ['w1', 'w2']);
  t.deepEqual(await externalIds(tenant, 'content of page', other), ['x1']);

  // The same request twice at once: the second attaches to the first's cleanup (or, if that one
  // was over already, runs again and finds nothing left).
  const concurrent = await Promise.all([
    cleanup(tenant, { sourceOrigin: 'wiki', keepExternalIds: [] }),
    cleanup(tenant, { sourceOrigin: 'wiki', keepExternalIds: [] }),
  ]);
  t.deepEqual(concurrent[0].body, { deleted: 2, orphanedExternalIds: concurrent[0].body.orphanedExternalIds });
  t.deepEqual([...concurrent[0].body.orphanedExternalIds].sort(), ['w1', 'w2']);
  t.true([0, 2].includes(concurrent[1].body.deleted));
  t.deepEqual(await externalIds(tenant, 'content of page'), []);
});

test('cleanup requires sourceOrigin and keepExternalIds', async (t) => {
  const tenant = await importingTenant(stack.api);
  const response = await cleanup(tenant, { knowledgeBaseId: tenant.kb });
  t.is(response.status, 400);
  t.deepEqual(response.body.error.details.map((d: { path: string }) => d.path).sort(), ['/keepExternalIds', '/sourceOrigin']);
});
