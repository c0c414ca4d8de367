import test from 'ava';
import { assertStoppedAtPageCap, connectingTenant, sourcesOfOrigin, untilSynced } from '#testing/connectors.js';
import { startFakeCms, type FakeCms, type FakeCmsOptions } from '#testing/fake-cms.js';
import { startIngestionStack, untilSearchable, waitForJobs, type IngestionStack } from '#testing/ingestion.js';

/*
 * The content-management connector end to end: a local fake of the CMS REST API (numbered pages with
 * total headers, `modified_after`, rate limiting) and the real API, worker, Temporal, Weaviate and Redis.
 */

let stack: IngestionStack;
const cleanups: Array<() => Promise<unknown>> = [];
/** Pages one sync may read here: more than every other test needs, few enough for a hostile site to reach. */
const maxPagesPerRun = 10;
test.before(async () => {
  stack = await startIngestionStack({ CONNECTOR_MAX_PAGES_PER_RUN: String(maxPagesPerRun) });
});
test.after.always(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  await stack?.close();
});

async function site(options: FakeCmsOptions = {}) {
  const cms = await startFakeCms(options);
  cleanups.push(() => cms.close());
  return cms;
}

async function connect(cms: FakeCms, data: Record<string, unknown> = {}) {
  const tenant = await connectingTenant(stack.api);
  const created = await tenant.asAdmin('POST', '/connectors/cms', {
    name: 'Northwind blog',
    data: { siteUrl: cms.url, ...data },
  });
  if (created.status !== 201) throw new Error(`connector not created: ${JSON.stringify(created.body)}`);
  cleanups.push(() => tenant.asAdmin('DELETE', `/connectors/${created.body.id}`));
  return { tenant, connector: created.body };
}

const listed = (cms: FakeCms, kind: 'posts' | 'pages') =>
  cms.requests.filter((request) => request.path.endsWith(`/wp/v2/${kind}`) && request.status === 200);

test.serial('a first sync is full: every published post and page is searchable, with its structured fields', async (t) => {
  const cms = await site();
  const posts = cms.addPosts(23);
  const pages = cms.addPages(4);
  const [draft] = cms.addPosts([{ status: 'draft', title: { rendered: 'Unreleased plans' } }]);
  cms.rateLimitNext(1, 1);

  const { tenant, connector } = await connect(cms, { pageSize: 10 });
  const synced = await untilSynced(tenant, connector.id);
  t.like(synced.sync.last, { outcome: 'succeeded', mode: 'full', sent: 27, deleted: 0 });
  t.is(cms.requests[0]!.status, 429);
  t.deepEqual(
    listed(cms, 'posts').map((request) => [request.query.page, request.query.orderby]),
    [
      ['1', 'id'],
      ['2', 'id'],
      ['3', 'id'],
    ],
  );
  t.is(listed(cms, 'pages').length, 1);

  const jobIds = [
    ...posts.map((post) => `${connector.integrationId}-post-${post.id}`),
    ...pages.map((page) => `${connector.integrationId}-page-${page.id}`),
  ];
  await untilSearchable(stack.api, tenant.headers, jobIds);
  const draftJob = await stack.api.request('GET', `/ingest/jobs/${connector.integrationId}-post-${draft!.id}`, {
    headers: tenant.headers,
  });
  t.is(draftJob.status, 404);

  const post = posts[4]!;
  const [hit] = (
    await stack.api.request('GET', `/knowledge-bases/${tenant.kb}/search?q=${encodeURIComponent(post.title.rendered)}&limit=3`, {
      headers: tenant.headers,
    })
  ).body.results;
  t.like(hit, { externalId: `post-${post.id}`, sourceType: 'ARTICLE', url: post.link });
  t.is(typeof hit.sourceData.author, 'string');
  t.true(Array.isArray(hit.sourceData.categories) && hit.sourceData.categories.length > 0);
  t.is(hit.sourceData.category, hit.sourceData.categories[0]);
  t.true(Array.isArray(hit.sourceData.tags));
  t.regex(hit.sourceData.publishedAt, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.000Z$/);

  const pageSource = (await sourcesOfOrigin(stack.api, tenant.tenant.id, tenant.kb, connector.integrationId)).filter((id) =>
    id.startsWith('page-'),
  );
  t.deepEqual(pageSource.sort(), pages.map((p) => `page-${p.id}`).sort());
});

test.serial('a post deleted between two pages of a full sync shifts the pages; the one it pushed back is kept', async (t) => {
  const cms = await site();
  const posts = cms.addPosts(12);
  const { tenant, connector } = await connect(cms, { pageSize: 5 });
  const first = await untilSynced(tenant, connector.id);
  // Cleanup judges what is ingested: the next full sync starts once the first one's posts are.
  await waitForJobs(
    stack.api,
    tenant.headers,
    posts.map((post) => `${connector.integrationId}-post-${post.id}`),
  );

  // After the first page of the next full sync, post 2 goes: page 2 then starts at post 7, and post 6 is
  // on no page this sync reads. It still exists, so the sync must not delete it.
  cms.afterEachRequest((request) => {
    if (request.path.endsWith('/wp/v2/posts') && request.query.page === '1' && request.query.orderby === 'id') {
      cms.afterEachRequest(undefined);
      cms.deleteEntry('posts', posts[1]!.id);
    }
  });
  await tenant.asAdmin('POST', `/connectors/${connector.id}/sync`, { full: true });
  const second = await untilSynced(tenant, connector.id, first.sync.last.runId);
  // Post 2 was read on page 1 before it went, so this run keeps it; post 6 was asked for by id and kept.
  t.like(second.sync.last, { outcome: 'succeeded', mode: 'full', deleted: 0 });
  t.true(cms.requests.some((request) => request.query.include === String(posts[5]!.id)));
  const all = posts.map((post) => `post-${post.id}`).sort();
  t.deepEqual((await sourcesOfOrigin(stack.api, tenant.tenant.id, tenant.kb, connector.integrationId)).sort(), all);

  await tenant.asAdmin('POST', `/connectors/${connector.id}/sync`, { full: true });
  const third = await untilSynced(tenant, connector.id, second.sync.last.runId);
  t.like(third.sync.last, { outcome: 'succeeded', mode: 'full', deleted: 1 });
  t.deepEqual(
    (await sourcesOfOrigin(stack.api, tenant.tenant.id, tenant.kb, connector.integrationId)).sort(),
    all.filter((id) => id !== `post-${posts[1]!.id}`),
  );
});

test.serial('later syncs are incremental: only what was modified is read and sent; deletions wait for a full sync', async (t) => {
  const cms = await site();
  const posts = cms.addPosts(15);
  cms.addPages(2);
  const { tenant, connector } = await connect(cms);
  const first = await untilSynced(tenant, connector.id);
  await waitForJobs(
    stack.api,
    tenant.headers,
    posts.map((post) => `${connector.integrationId}-post-${post.id}`),
  );

  cms.updateEntry('posts', posts[3]!.id, { title: { rendered: 'Winter opening hours of the Oslo store' } });
  cms.deleteEntry('posts', posts[7]!.id);
  const requestsBefore = cms.requests.length;
  t.is((await tenant.asAdmin('POST', `/connectors/${connector.id}/sync`, {})).status, 202);
  const incremental = await untilSynced(tenant, connector.id, first.sync.last.runId);
  t.like(incremental.sync.last, { outcome: 'succeeded', mode: 'incremental', deleted: 0 });
  // Only the modified post is sent; the few modified in the watermark's own second are read again on
  // purpose, and found unchanged.
  t.is(incremental.sync.last.sent, 1);
  t.true(incremental.sync.last.unchanged < 16, `unchanged ${incremental.sync.last.unchanged}`);
  const lists = cms.requests.slice(requestsBefore).filter((request) => request.path.includes('/wp/v2/'));
  t.true(lists.every((request) => request.query.modified_after !== undefined && request.query.orderby === 'modified'));

  const job = await waitForJobs(stack.api, tenant.headers, [`${connector.integrationId}-post-${posts[3]!.id}`]);
  t.is(job.values().next().value!.status, 'searchable');
  const [hit] = (
    await stack.api.request(
      'GET',
      `/knowledge-bases/${tenant.kb}/search?q=${encodeURIComponent('Winter opening hours Oslo')}&limit=1`,
      {
        headers: tenant.headers,
      },
    )
  ).body.results;
  t.is(hit.title, 'Winter opening hours of the Oslo store');
  // The deleted post is still there: an incremental sync cannot see deletions.
  t.true(
    (await sourcesOfOrigin(stack.api, tenant.tenant.id, tenant.kb, connector.integrationId)).includes(`post-${posts[7]!.id}`),
  );

  t.is((await tenant.asAdmin('POST', `/connectors/${connector.id}/sync`, { full: true })).status, 202);
  const full = await untilSynced(tenant, connector.id, incremental.sync.last.runId);
  t.like(full.sync.last, { outcome: 'succeeded', mode: 'full', sent: 0, unchanged: 16, deleted: 1 });
  const deleted = await waitForJobs(stack.api, tenant.headers, [`${connector.integrationId}-post-${posts[7]!.id}`]);
  t.is(deleted.values().next().value!.status, 'deleted');
  t.false(
    (await sourcesOfOrigin(stack.api, tenant.tenant.id, tenant.kb, connector.integrationId)).includes(`post-${posts[7]!.id}`),
  );
});

test.serial(
  'a site that requires an application password is read with it; a wrong one fails the run with the status, never the body',
  async (t) => {
    const cms = await site({ auth: { username: 'connector', password: 'abcd efgh ijkl mnop' } });
    cms.addPosts(3);
    const good = await connect(cms, { username: 'connector', applicationPassword: 'abcdefghijklmnop' });
    const synced = await untilSynced(good.tenant, good.connector.id);
    t.like(synced.sync.last, { outcome: 'succeeded', sent: 3 });
    // Pasted as the site shows it: groups of four with spaces.
    const shown = await connect(cms, { username: 'connector', applicationPassword: 'abcd efgh ijkl mnop' });
    t.like((await untilSynced(shown.tenant, shown.connector.id)).sync.last, { outcome: 'succeeded', sent: 3 });

    const bad = await connect(cms, { username: 'connector', applicationPassword: 'wrong-password' });
    const failed = await untilSynced(bad.tenant, bad.connector.id);
    t.is(failed.sync.last.outcome, 'failed');
    t.is(
      failed.sync.last.error,
      'GET posts page 1: the CMS answered 401 Unauthorized (check the username and application password)',
    );
    t.false(failed.sync.last.error.includes('wrong-password'));
    t.false(failed.sync.last.error.includes('invalid application password'), "the site's error body is not shown");
  },
);

test.serial('a site claiming endless pages fails the run at the page cap, with the reason on the connector', async (t) => {
  const cms = await site();
  cms.addPosts(3);
  cms.claimTotalPages(100_000_000);
  const { tenant, connector } = await connect(cms, { pageSize: 2 });
  const failed = await untilSynced(tenant, connector.id);
  assertStoppedAtPageCap(t, failed, maxPagesPerRun);
  t.is(listed(cms, 'posts').length, maxPagesPerRun);
  t.false(cms.requests.some((request) => request.path.endsWith('/wp/v2/pages')));
});
