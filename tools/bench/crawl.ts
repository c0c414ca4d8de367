/**
 * `npm run bench:crawl [-- --pages 1000 --rps 10 --concurrency 4 --crawl-delay 0.5]`: the website
 * connector on a real documentation site, on a stack of its own (1 API, 1 worker). The site is the
 * PostgreSQL 15 manual (`postgres-docs.ts`), its first `--pages` pages by name served one by one by the
 * local static site (ETag, Last-Modified, 304s; a link to any other page answers 404), with a
 * robots.txt allowing all (a `Crawl-delay` only with `--crawl-delay`) and a sitemap of those pages.
 * After a warm-up, measured in one run:
 *  - baseline: the items the crawler would send for those pages (`readHtml` + `sectionItems`, the same
 *    identities, a page with another's address or text left out as the crawl leaves it), posted
 *    straight to POST /ingest/bulk until every job is searchable;
 *  - the crawl: from connecting the site (`maxPages` the pages, `--rps`, `--concurrency`) until the
 *    crawl has finished and every item it sent is searchable; its politeness as the site measured it
 *    (the most requests in flight at once, requests per second) beside the configured limits;
 *  - a re-crawl of the unchanged site: each page should answer 304 and no item be sent again.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import escapeHtml from 'escape-html';
import { contentHash, type SyncItem } from '#connector-sdk/index.js';
import { readHtml } from '#connectors/documents/html.js';
import { sectionItems } from '#connectors/section-items.js';
import { asSent } from '#connectors/send-items.js';
import { decodeHtml } from '#connectors/website/decode-html.js';
import { canonicalUrl } from '#connectors/website/urls.js';
import { cpuMeter } from '#testing/process-usage.js';
import { startStaticSite, type SiteRequest, type StaticSite } from '#testing/static-site.js';
import { log } from '#deploy/local/output.js';
import {
  createMeasuredTenant,
  ingestAll,
  jobStatuses,
  measuredTenantAdmin,
  round,
  startMeasuredStack,
  untilConnectorSynced,
  waitFor,
} from './measured-stack.js';
import { postgresDocsPackage, postgresDocsPages, unpackedPostgresDocs } from './postgres-docs.js';

const { values: args } = parseArgs({
  options: {
    pages: { type: 'string', default: '1000' },
    rps: { type: 'string', default: '10' },
    concurrency: { type: 'string', default: '4' },
    'crawl-delay': { type: 'string' },
  },
});
const pageCount = Number(args.pages);
const rps = Number(args.rps);
const concurrency = Number(args.concurrency);
const crawlDelay = args['crawl-delay'] === undefined ? undefined : Number(args['crawl-delay']);
/** The least time between two requests' starts the crawler should keep, in seconds. */
const interval = Math.max(1 / rps, crawlDelay ?? 0);
const measuring = { timeoutMs: 60 * 60_000 };

const folder = await unpackedPostgresDocs();
const manual = await postgresDocsPackage();
const names = postgresDocsPages(folder).slice(0, pageCount);
if (names.length < pageCount) throw new Error(`the manual has ${names.length} pages, fewer than --pages ${pageCount}`);
const site = await startStaticSite();
for (const name of names) site.put(`/docs/${name}`, readFileSync(join(folder, name)));
const pageUrls = names.map((name) => `${site.url}/docs/${name}`);
site.put('/robots.txt', `User-agent: *\nAllow: /\n${crawlDelay === undefined ? '' : `Crawl-delay: ${crawlDelay}\n`}`);
site.put(
  '/sitemap.xml',
  `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n` +
    `${pageUrls.map((url) => `<url><loc>${escapeHtml(url)}</loc></url>`).join('\n')}\n</urlset>\n`,
);
const stamps = stampRequests(site);

const stack = await startMeasuredStack('crawl');
try {
  const apps = await stack.startApps(1);
  const pidOf = (name: string) => stack.services.services.find((service) => service.name === name)?.process?.pid;
  const meter = () =>
    cpuMeter({
      API: apps.api.pid,
      worker: apps.workers[0]!.pid,
      Temporal: pidOf('temporal'),
      Weaviate: pidOf('weaviate'),
      ...(pidOf('redis') ? { Redis: pidOf('redis') } : {}),
      'bench (the site)': process.pid,
    });
  log(
    `profile ${stack.profile}: ${pageCount} pages of ${manual}, ${rps} requests/s and ${concurrency} at once` +
      `${crawlDelay === undefined ? '' : `, Crawl-delay ${crawlDelay} s`}, 1 API and 1 worker process`,
  );

  const readStart = performance.now();
  const pageItems = crawlerItems(pageUrls);
  const readMs = (performance.now() - readStart) / pageCount;
  log(`${pageItems.length} items for ${pageCount} pages (${round(readMs)} ms a page to read here)`);

  // Warm-up, not measured: the first items of a fresh stack pay for creating the Weaviate collection.
  await ingestAll(stack, await createMeasuredTenant(stack, ['iq:import']), pageItems.slice(0, 50).map((item) => asSent(item, { integrationId: 'warm-up' }, 'low')));

  // Baseline: the same items straight through the ingestion API.
  log('baseline: posting the items to POST /ingest/bulk');
  const direct = await createMeasuredTenant(stack, ['iq:import']);
  const baselineCpu = meter();
  const baselineStart = performance.now();
  const baseline = await ingestAll(stack, direct, pageItems.map((item) => asSent(item, { integrationId: 'bench-crawl' }, 'low')));
  const baselineSeconds = (performance.now() - baselineStart) / 1000;
  const baselineUsage = baselineCpu.stop();

  // The crawl.
  const tenant = await createMeasuredTenant(stack, ['iq:read']);
  const asAdmin = await measuredTenantAdmin(stack, tenant.tenantId);
  let told = performance.now();
  /** The connector once its next run finished (a crawl that failed ends the benchmark), its progress logged meanwhile. */
  const untilSynced = async (connectorId: string, previousRunId?: string) => {
    const connector = await untilConnectorSynced(asAdmin, connectorId, {
      ...(previousRunId ? { previousRunId } : {}),
      timeoutMs: measuring.timeoutMs,
      onPoll: ({ sync }) => {
        const pages = sync.running?.pages;
        if (!pages || performance.now() - told < 15_000) return;
        told = performance.now();
        log(`crawling: ${pages.found ?? 0} found, ${pages.fetched ?? 0} fetched, ${pages.unchanged ?? 0} unchanged`);
      },
    });
    if (connector.sync.last.outcome !== 'succeeded') throw new Error(`the crawl failed: ${JSON.stringify(connector.sync)}`);
    return connector;
  };

  log('crawl: connecting the site');
  const crawlCpu = meter();
  const crawlLoop = loopDelay();
  const crawlFrom = site.requests.length;
  const crawlStart = performance.now();
  const connector = await asAdmin.request<any>('POST', '/connectors/website', {
    name: 'PostgreSQL manual',
    data: {
      startUrls: [pageUrls[0]],
      sitemaps: [`${site.url}/sitemap.xml`],
      maxPages: pageCount,
      requestsPerSecond: rps,
      concurrency,
    },
  });
  const first = await untilSynced(connector.id);
  const crawledSeconds = (performance.now() - crawlStart) / 1000;
  const crawlTo = site.requests.length;
  const crawlLoopMs = crawlLoop.stop();
  const jobPrefix = `${stack.prefix}:job:${tenant.tenantId}:${connector.integrationId}-`;
  const jobKeys: string[] = [];
  for await (const key of stack.redis.scanIterator({ MATCH: `${jobPrefix}*`, COUNT: 1000 })) jobKeys.push(key);
  log(`crawl finished in ${round(crawledSeconds)} s: waiting for its ${jobKeys.length} items to be searchable`);
  await waitFor(
    async () => (await jobStatuses(stack, jobKeys)).every((status) => status === 'searchable' || status === 'failed'),
    1_000,
    measuring.timeoutMs,
  );
  const crawlSeconds = (performance.now() - crawlStart) / 1000;
  const crawlUsage = crawlCpu.stop();
  const crawlFailed = (await jobStatuses(stack, jobKeys)).filter((status) => status === 'failed').length;
  const crawlIds = new Set(jobKeys.map((key) => key.slice(jobPrefix.length)));
  const inBoth = pageItems.filter((item) => crawlIds.has(item.externalId)).length;

  // The re-crawl of the unchanged site.
  log('re-sync of the unchanged site');
  const resyncCpu = meter();
  const resyncLoop = loopDelay();
  const resyncFrom = site.requests.length;
  const resyncStart = performance.now();
  await asAdmin.request('POST', `/connectors/${connector.id}/sync`, {});
  const second = await untilSynced(connector.id, first.sync.last.runId);
  const resyncSeconds = (performance.now() - resyncStart) / 1000;
  const resyncTo = site.requests.length;
  const resyncLoopMs = resyncLoop.stop();
  const resyncUsage = resyncCpu.stop();
  const again = site.requests.slice(resyncFrom, resyncTo).filter(isPage);
  const notModified = again.filter((request) => request.status === 304).length;
  await asAdmin.request('DELETE', `/connectors/${connector.id}`);

  const counts = (pages: Record<string, number>, which: string[]) => which.map((name) => pages[name] ?? 0).join(', ');
  const goal = (met: boolean) => (met ? 'met' : 'NOT met');
  const ratio = baselineSeconds / crawlSeconds;
  console.log(`\nbench:crawl (${manual}, the first ${pageCount} pages by name)`);
  console.table({
    profile: stack.profile,
    'reading a page here (readHtml + sectionItems, ms)': round(readMs),
    'items: baseline, sent by the crawl, same ids in both': `${pageItems.length}, ${first.sync.last.sent}, ${inBoth}`,
    'baseline: bulk POST to all searchable (s)': round(baselineSeconds),
    'baseline: pages/s': round(pageCount / baselineSeconds, 2),
    'baseline: items/s': round(pageItems.length / baselineSeconds, 2),
    'crawl: connect to crawl finished (s)': round(crawledSeconds),
    'crawl: connect to all searchable (s)': round(crawlSeconds),
    'crawl: pages/s': round(pageCount / crawlSeconds, 2),
    'crawl: items/s': round(jobKeys.length / crawlSeconds, 2),
    'ratio crawl / baseline, pages/s (goal >= 0.8)': `${round(ratio, 2)} (${goal(ratio >= 0.8)})`,
    'crawl pages: found, fetched, sent, duplicates, overCap, gone, failed': counts(first.sync.last.pages, [
      'found',
      'fetched',
      'sent',
      'duplicates',
      'overCap',
      'gone',
      'failed',
    ]),
    'failed items (baseline, crawl)': `${baseline.failed}, ${crawlFailed}`,
    're-sync: wall time (s)': round(resyncSeconds),
    're-sync: page requests answered 304 (goal 100 %)': `${round((100 * notModified) / again.length)} % of ${again.length} (${goal(notModified === again.length && again.length > 0)})`,
    're-sync: items re-sent (goal 0)': `${second.sync.last.sent} (${goal(second.sync.last.sent === 0)})`,
    're-sync pages: found, fetched, unchanged, failed': counts(second.sync.last.pages, [
      'found',
      'fetched',
      'unchanged',
      'failed',
    ]),
  });

  console.log(`\npoliteness at the site (one host; configured: ${concurrency} at once, ${round(1 / interval, 2)} requests/s)`);
  console.table({
    crawl: politeness(crawlFrom, crawlTo, first.sync.last.pages.maxInFlight, crawlLoopMs),
    're-sync': politeness(resyncFrom, resyncTo, second.sync.last.pages.maxInFlight, resyncLoopMs),
  });

  console.log('\nCPU seconds per process');
  console.table(
    Object.fromEntries(
      Object.entries({ baseline: baselineUsage, crawl: crawlUsage, 're-sync': resyncUsage }).map(([phase, usage]) => [
        phase,
        {
          ...Object.fromEntries(Object.entries(usage.cpu).map(([name, seconds]) => [name, round(seconds)])),
          wall: round(usage.wall),
        },
      ]),
    ),
  );
} finally {
  stamps.stop();
  await stack.stop();
  await site.close();
}

/** What the crawler sends for each page: read as a crawl step reads it; a page with another's address or text counts once. */
function crawlerItems(urls: string[]): SyncItem[] {
  const claimed = new Set<string>();
  const claim = (key: string) => claimed.has(key) || !claimed.add(key);
  return urls.flatMap((url) => {
    const host = new URL(url).host;
    const bytes = readFileSync(join(folder, new URL(url).pathname.slice('/docs/'.length)));
    const html = readHtml(decodeHtml(bytes, 'text/html; charset=utf-8'), { mainContent: true, url });
    if (html.robots.noindex) return [];
    const canonical = canonicalUrl(url, html.canonical, (other) => new URL(other).host === host);
    const items = sectionItems(html, { id: canonical, fallbackTitle: canonical, url: canonical, sourceData: { site: host } });
    const text = contentHash(html.title ?? '', items.map((item) => item.data.content).join('\n'));
    return claim(`url:${canonical}`) || (items.length > 0 && claim(`text:${text}`)) ? [] : items;
  });
}

function isPage(request: SiteRequest): boolean {
  return request.path.startsWith('/docs/');
}

/** When each of the site's requests ended, to 20 ms: the site records its requests, not their times. */
function stampRequests(target: StaticSite) {
  const times: number[] = [];
  const timer = setInterval(() => {
    while (times.length < target.requests.length) times.push(performance.now());
  }, 20);
  return { times, stop: () => clearInterval(timer) };
}

/** The longest this process (the site, and the stamps) was kept from its timers, in ms, from now until `stop`. */
function loopDelay() {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  return {
    stop() {
      histogram.disable();
      return histogram.max / 1e6;
    },
  };
}

/**
 * What the site saw of requests `from` to `to`: the most in flight at once; the page requests per
 * second over the run, while fetching (pauses of a second or more, a step sending its items, left
 * out) and in the busiest second; and how many followed the one before by less than half the
 * configured interval (bunched). The times are when requests ended, as this process saw it: its own
 * event-loop delay is the measure's error.
 */
function politeness(from: number, to: number, crawlerMaxInFlight: number | undefined, loopDelayMs: number) {
  const requests = site.requests.slice(from, to);
  const times = stamps.times.slice(from, to).filter((_, i) => isPage(requests[i]!));
  const seconds = (times.at(-1)! - times[0]!) / 1000;
  const pauseMs = Math.max(1000, 5 * interval * 1000);
  let fetching = 0;
  let fetchingGaps = 0;
  let bunched = 0;
  let busiest = Math.min(1, times.length);
  for (let i = 1, start = 0; i < times.length; i += 1) {
    const gap = times[i]! - times[i - 1]!;
    if (gap < pauseMs) {
      fetching += gap / 1000;
      fetchingGaps += 1;
    }
    if (gap < (interval * 1000) / 2) bunched += 1;
    while (times[i]! - times[start]! >= 1000) start += 1;
    busiest = Math.max(busiest, i - start + 1);
  }
  return {
    'page requests': times.length,
    'most in flight (site)': Math.max(0, ...requests.map((request) => request.inFlight)),
    'most in flight (crawler)': crawlerMaxInFlight ?? '-',
    'requests/s over the run': round((times.length - 1) / seconds, 2),
    'requests/s while fetching': round(fetchingGaps / fetching, 2),
    'busiest second': busiest,
    'under half an interval apart': bunched,
    'site process: max event-loop delay (ms)': round(loopDelayMs),
  };
}
