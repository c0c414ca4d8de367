import { join } from 'node:path';
import test from 'ava';
import { unpackedDebianDocs } from '#bench/debian-docs.js';
import { connectingTenant, sourcesOfOrigin, untilSynced, type ConnectingTenant } from '#testing/connectors.js';
import { eventually } from '#testing/eventually.js';
import { createTemporalClient } from '#platform/temporal.js';
import { startIngestionStack, waitForJobs, type IngestionStack } from '#testing/ingestion.js';
import { syncProgressQuery } from '#workflows/connectors/progress.js';
import { connectorScheduleId } from '#workflows/ids.js';
import { startStaticSite, type StaticSite } from '#testing/static-site.js';
import { pdfOfPages } from '#testing/documents.js';

/*
 * The website connector end to end: the Debian FAQ's real HTML (DocBook's navigation, cross links,
 * anchors, and each chapter at two addresses, `x.html` and `x.en.html`) served by a local site with a
 * robots.txt and a sitemap written here, crawled by the real API, worker, Temporal, Weaviate and Redis.
 */

let stack: IngestionStack;
let faq: string;
const cleanups: Array<() => Promise<unknown>> = [];
test.before(async () => {
  [stack, faq] = await Promise.all([
    startIngestionStack(),
    unpackedDebianDocs().then((root) => join(root, 'usr/share/doc/debian/FAQ')),
  ]);
});
test.after.always(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  await stack?.close();
});

/**
 * The FAQ under `/faq/`; robots.txt keeps the crawler from one chapter and from `/private/`. The
 * sitemap lists a chapter at its second address (`faqinfo.html`, the same text as the `faqinfo.en.html`
 * the pages link to).
 */
async function faqSite(): Promise<StaticSite> {
  const site = await startStaticSite(faq, '/faq/');
  cleanups.push(() => site.close());
  site.put(
    '/robots.txt',
    'User-agent: *\nDisallow: /private/\n\nUser-agent: KbAssistantBot\nDisallow: /faq/kernel\nDisallow: /private/\n',
  );
  site.put(
    '/sitemap.xml',
    `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` +
      `<url><loc>${site.url}/faq/index.en.html</loc></url><url><loc>${site.url}/faq/faqinfo.html</loc></url></urlset>`,
  );
  return site;
}

async function connect(site: StaticSite, data: Record<string, unknown> = {}) {
  const tenant = await connectingTenant(stack.api);
  const created = await tenant.asAdmin('POST', '/connectors/website', {
    name: 'Debian FAQ',
    data: { startUrls: [`${site.url}/faq/index.en.html`], sitemaps: [`${site.url}/sitemap.xml`], requestsPerSecond: 10, ...data },
  });
  if (created.status !== 201) throw new Error(`connector not created: ${JSON.stringify(created.body)}`);
  cleanups.push(() => tenant.asAdmin('DELETE', `/connectors/${created.body.id}`));
  return { tenant, connector: created.body };
}

/** The external ids of the connector's items once `count` of them are ingested (ingestion runs behind the crawl). */
async function ingested(tenant: ConnectingTenant, connector: { integrationId: string }, count: number): Promise<string[]> {
  return eventually(
    () => sourcesOfOrigin(stack.api, tenant.tenant.id, tenant.kb, connector.integrationId),
    (ids) => ids.length >= count,
    { timeoutMs: 120_000, intervalMs: 500 },
  );
}

const pageRequests = (site: StaticSite, from = 0) =>
  site.requests.slice(from).filter((request) => request.path.startsWith('/faq/') && request.path.endsWith('.html'));

async function search(tenant: ConnectingTenant, query: string) {
  const found = await stack.api.request('GET', `/knowledge-bases/${tenant.kb}/search?q=${encodeURIComponent(query)}&limit=3`, {
    headers: tenant.headers,
  });
  return found.body.results as Array<Record<string, any>>;
}

test.serial(
  'a crawl takes in a real documentation site: one item per section, linked to its anchor, within robots.txt',
  async (t) => {
    const site = await faqSite();
    const { tenant, connector } = await connect(site, { concurrency: 2 });
    const crawled = await untilSynced(tenant, connector.id);
    t.like(crawled.sync.last, { outcome: 'succeeded', mode: 'full', deleted: 0 });
    const { pages } = crawled.sync.last;
    t.true(pages.fetched >= 14, JSON.stringify(pages));
    t.true(pages.skippedByRobots >= 1, 'the kernel chapter is disallowed for our user agent');
    t.false(site.requests.some((request) => request.path.startsWith('/faq/kernel')));
    t.true(site.requests.every((request) => request.userAgent.startsWith('KbAssistantBot/1.0')));
    t.true(Math.max(...site.requests.map((request) => request.inFlight)) <= 2, 'never more than the concurrency at once');
    t.true(pages.maxInFlight <= 2);

    const ids = await ingested(tenant, connector, crawled.sync.last.sent);
    t.is(ids.length, crawled.sync.last.sent);
    // The sitemap's `faqinfo.html` has the text of the linked `faqinfo.en.html`: it counts once.
    t.is(pages.duplicates, 1, JSON.stringify(pages));
    t.false(ids.some((id) => id.includes('/faqinfo.html')) && ids.some((id) => id.includes('/faqinfo.en.html')));
    await waitForJobs(
      stack.api,
      tenant.headers,
      ids.map((id) => `${connector.integrationId}-${id}`),
    );
    const [hit] = await search(tenant, 'What is the difference between stable and testing');
    t.truthy(hit);
    t.is(hit!.sourceType, 'PAGE');
    t.regex(
      hit!.url,
      new RegExp(`^${site.url}/faq/[a-z-]+(\\.en)?\\.html#[\\w.-]+$`),
      `linked to the section: ${JSON.stringify(hit)}`,
    );
    t.regex(hit!.title, / — /, 'the section heading follows the page title');
    t.is(hit!.sourceData.site, new URL(site.url).host);
  },
);

test.serial(
  'a second crawl of an unchanged site costs 304s and re-embeds nothing; a changed page is sent, a page gone leaves',
  async (t) => {
    const site = await faqSite();
    const { tenant, connector } = await connect(site);
    const first = await untilSynced(tenant, connector.id);
    const ids = await ingested(tenant, connector, first.sync.last.sent);
    await waitForJobs(
      stack.api,
      tenant.headers,
      ids.map((id) => `${connector.integrationId}-${id}`),
    );

    const before = site.requests.length;
    await tenant.asAdmin('POST', `/connectors/${connector.id}/sync`);
    const second = await untilSynced(tenant, connector.id, first.sync.last.runId);
    t.like(second.sync.last, { outcome: 'succeeded', sent: 0, deleted: 0 });
    const again = pageRequests(site, before);
    t.true(again.length > 0);
    t.true(
      again.every((request) => request.conditional && request.status === 304),
      `every page asked conditionally and answered 304: ${JSON.stringify(again.filter((r) => r.status !== 304))}`,
    );
    t.is(second.sync.last.pages.unchanged, first.sync.last.pages.fetched);

    // A chapter goes (404), another one changes.
    site.remove('/faq/faqinfo.en.html');
    site.remove('/faq/faqinfo.html');
    const changed = site.paths().find((path) => path.endsWith('/support.en.html'))!;
    site.put(
      changed,
      site.paths().includes(changed)
        ? `<html><head><title>Support</title></head><body><main><h1>Support</h1><h2 id="zebra">Zebra support</h2><p>Debian now answers questions about zebras on the zebra mailing list, every Tuesday.</p></main></body></html>`
        : '',
    );
    await tenant.asAdmin('POST', `/connectors/${connector.id}/sync`);
    const third = await untilSynced(tenant, connector.id, second.sync.last.runId);
    t.like(third.sync.last, { outcome: 'succeeded' });
    t.true(third.sync.last.sent >= 1);
    t.true(third.sync.last.deleted >= 1, JSON.stringify(third.sync.last));
    const left = await sourcesOfOrigin(stack.api, tenant.tenant.id, tenant.kb, connector.integrationId);
    t.false(left.some((id) => id.includes('/faq/faqinfo')));
    await waitForJobs(
      stack.api,
      tenant.headers,
      left.map((id) => `${connector.integrationId}-${id}`),
    );
    const [hit] = await search(tenant, 'zebra mailing list');
    t.regex(hit!.url, /support(\.en)?\.html#zebra$/);
  },
);

test.serial('a crawl interrupted by a worker restart goes on from its frontier, reading each page at most twice', async (t) => {
  const site = await faqSite();
  const { tenant, connector } = await connect(site, { requestsPerSecond: 1, concurrency: 1 });
  await eventually(
    async () => pageRequests(site).length,
    (count) => count >= 4,
    { timeoutMs: 60_000, intervalMs: 50 },
  );
  // The crawl answers `progress` queries (the Temporal UI's Queries tab) with its counts.
  const temporal = createTemporalClient(stack.api.config.temporal);
  t.teardown(() => temporal.close());
  const schedule = await temporal.client.schedule.getHandle(connectorScheduleId(tenant.tenant.id, connector.id)).describe();
  const crawl = schedule.info.recentActions.at(-1)!.action.workflow.workflowId;
  const progress = await eventually(
    () => temporal.client.workflow.getHandle(crawl).query(syncProgressQuery),
    (answer) => (answer.crawl?.fetched ?? 0) > 0,
    { timeoutMs: 60_000, intervalMs: 200 },
  );
  t.true(progress.crawl!.found! >= 2, JSON.stringify(progress));

  await stack.stopWorker();
  const beforeRestart = pageRequests(site).length;
  t.true(beforeRestart < 16, `the crawl was still under way (${beforeRestart} pages asked)`);
  await stack.startWorker();

  const crawled = await untilSynced(tenant, connector.id);
  t.like(crawled.sync.last, { outcome: 'succeeded', deleted: 0 });
  const reads = new Map<string, number>();
  for (const request of pageRequests(site)) reads.set(request.path, (reads.get(request.path) ?? 0) + 1);
  t.true(
    [...reads.values()].every((times) => times <= 2),
    JSON.stringify([...reads]),
  );
  t.true([...reads.values()].filter((times) => times === 2).length <= 10, 'at most the step in flight was read again');
  const ids = await ingested(tenant, connector, crawled.sync.last.sent);
  t.is(new Set(ids).size, ids.length);
  t.true(ids.length >= 100, `${ids.length} items`);
});

test.serial('a site that is down, or behind a login wall, deletes nothing and fails the crawl with the reason', async (t) => {
  const site = await faqSite();
  const { tenant, connector } = await connect(site);
  const first = await untilSynced(tenant, connector.id);
  const kept = (await ingested(tenant, connector, first.sync.last.sent)).sort();
  t.true(kept.length >= 20);

  site.setMode('pages_down');
  await tenant.asAdmin('POST', `/connectors/${connector.id}/sync`);
  const down = await untilSynced(tenant, connector.id, first.sync.last.runId);
  t.like(down.sync.last, { outcome: 'failed', deleted: 0 });
  t.regex(down.sync.last.error, /^The site answered no page \(http_503 × \d+, kept out by robots.txt × 1\); nothing was deleted/);
  t.true(down.sync.failures.some((failure: { reason: string }) => failure.reason === 'http_503'));

  site.setMode('down');
  await tenant.asAdmin('POST', `/connectors/${connector.id}/sync`);
  const robotsDown = await untilSynced(tenant, connector.id, down.sync.last.runId);
  t.like(robotsDown.sync.last, { outcome: 'failed', deleted: 0 });
  t.regex(robotsDown.sync.last.error, /robots\.txt could not be read/);

  site.setMode('login_wall');
  await tenant.asAdmin('POST', `/connectors/${connector.id}/sync`);
  const walled = await untilSynced(tenant, connector.id, robotsDown.sync.last.runId);
  t.like(walled.sync.last, { outcome: 'failed', deleted: 0 });
  t.regex(walled.sync.last.error, /cleanup would delete \d+, so nothing was deleted.*confirmDeletions/);
  // What the crawl read (the login page) was taken in; nothing it kept was deleted.
  const after = await sourcesOfOrigin(stack.api, tenant.tenant.id, tenant.kb, connector.integrationId);
  t.deepEqual(
    kept.filter((id) => !after.includes(id)),
    [],
  );

  // The tenant says the site really is gone: the crawl may delete what it no longer finds.
  await tenant.asAdmin('POST', `/connectors/${connector.id}/sync`, { confirmDeletions: true });
  const confirmed = await untilSynced(tenant, connector.id, walled.sync.last.runId);
  t.like(confirmed.sync.last, { outcome: 'succeeded' });
  t.true(confirmed.sync.last.deleted >= kept.length - 1);
});

test.serial('a PDF linked within the scope is read like an uploaded file, cited by page', async (t) => {
  const site = await startStaticSite();
  cleanups.push(() => site.close());
  site.put('/robots.txt', 'User-agent: *\nAllow: /\n');
  site.put('/manual.pdf', await pdfOfPages(['Unpacking the tent', 'Pitch the tent with its door away from the wind.']));
  site.put(
    '/index.html',
    `<html><head><title>Camping help</title></head><body><nav><a href="/about.html">About</a></nav><main><h1>Camping help</h1>` +
      `<p>Read <a href="/manual.pdf">the tent manual</a>. Our guides cover tents, stoves and sleeping bags for every season.</p>` +
      `<p>Also see <a href="https://elsewhere.example/page.html">a page on another site</a>.</p></main></body></html>`,
  );
  const { tenant, connector } = await connect(site, { startUrls: [`${site.url}/index.html`], sitemaps: [] });
  const crawled = await untilSynced(tenant, connector.id);
  t.like(crawled.sync.last, { outcome: 'succeeded' }, JSON.stringify(crawled.sync));
  t.like(crawled.sync.last.pages, { gone: 1 }, 'the navigation link to a missing page');
  const ids = await ingested(tenant, connector, crawled.sync.last.sent);
  t.true(ids.includes(`${site.url}/manual.pdf#page-2`), JSON.stringify(ids));
  await waitForJobs(
    stack.api,
    tenant.headers,
    ids.map((id) => `${connector.integrationId}-${id}`),
  );
  const [hit] = await search(tenant, 'door away from the wind');
  t.like(hit, { externalId: `${site.url}/manual.pdf#page-2`, url: `${site.url}/manual.pdf#page=2` });
  t.regex(hit!.title, /page 2$/);
});
