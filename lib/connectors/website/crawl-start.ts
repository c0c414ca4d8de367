import { OutboundError, type OutboundFile, type OutboundFiles } from '#platform/outbound/outbound-http.js';
import type { WebsiteConnector } from '../records.js';
import { getPatiently, type Patience } from '../retrying-get.js';
import { CrawlRefusedError } from '../sync-failures.js';
import type { CrawlFailure, CrawlState } from './crawl-state.js';
import { parseRobots, type RobotsAnswer } from './robots.js';
import { originsOf, siteOf } from './site.js';
import { parseSitemap, SitemapError } from './sitemaps.js';
import { normalizeUrl } from './urls.js';
import { crawlerUserAgent } from './user-agent.js';

/** Sitemaps one crawl reads at most (an index's children included): an index of indexes must end. */
const maxSitemaps = 50;

export interface CrawlStartOptions {
  connector: Pick<WebsiteConnector, 'id' | 'website'>;
  runId: string;
  crawlState: Pick<CrawlState, 'saveRobots' | 'seed' | 'commit'>;
  patience: Patience & { http: OutboundFiles };
  now?: () => Date;
}

/**
 * Starts a crawl: reads each origin's robots.txt (kept for the crawl's steps), then the sitemaps,
 * and seeds the frontier with the start URLs and the sitemaps' pages, within the scope and the page
 * cap. A robots.txt that cannot be read (5xx, no answer) means crawl nothing there (RFC 9309): the
 * crawl fails now, deleting nothing (a crawl without that origin's pages would delete them). A sitemap that fails is a failure of the
 * crawl's list, not of the crawl. Repeating the start (a retried activity) seeds nothing twice.
 */
export async function startCrawl({ connector, runId, crawlState, patience, now = () => new Date() }: CrawlStartOptions) {
  const { website } = connector;
  const origins = originsOf(website);
  const answers = Object.fromEntries(
    await Promise.all(origins.map(async (origin) => [origin, await readRobots(origin, patience)])),
  );
  const unreadable = origins.filter((origin) => {
    const answer = answers[origin] as RobotsAnswer;
    return (
      parseRobots(`${origin}/robots.txt`, answer).state === 'disallow_all' &&
      (answer === 'unreachable' || answer.status >= 500 || answer.status === 429)
    );
  });
  if (unreadable.length > 0) {
    throw new CrawlRefusedError(
      'robots_unreachable',
      `The site's robots.txt could not be read (${unreadable.map((origin) => `${origin}/robots.txt`).join(', ')}): ` +
        'a crawler must then fetch nothing. Nothing was deleted; the next crawl tries again.',
    );
  }
  const robots = Object.fromEntries(origins.map((origin) => [origin, JSON.stringify(answers[origin])]));
  await crawlState.saveRobots(connector.id, runId, robots);

  const site = siteOf(website, robots);
  const failures: CrawlFailure[] = [];
  const fromSitemaps = await readSitemaps(website.sitemaps, patience, (url, reason, message) =>
    failures.push({ url, reason, message, at: now().toISOString() }),
  );
  const seeds = [...website.startUrls, ...fromSitemaps]
    .flatMap((address) => normalizeUrl(address) ?? [])
    .filter(site.scope.inScope);
  const seeded = await crawlState.seed(connector.id, runId, seeds, website.maxPages);
  if (failures.length > 0) {
    await crawlState.commit(
      connector.id,
      runId,
      { done: [], found: [], counts: {}, failures, memories: new Map() },
      website.maxPages,
    );
  }
  return { seeded };
}

/** An origin's robots.txt as read (redirects followed, as RFC 9309 asks), or 'unreachable'. */
async function readRobots(origin: string, patience: Patience): Promise<RobotsAnswer> {
  const last = await getPatiently(`${origin}/robots.txt`, { 'user-agent': crawlerUserAgent }, { maxRetries: 2, ...patience });
  if (last.answer) return { status: last.answer.status, text: last.answer.text };
  if (last.error instanceof OutboundError) return 'unreachable';
  throw last.error;
}

/** The pages of `sitemaps`, indexes followed (at most `maxSitemaps` read), in the order listed. */
async function readSitemaps(
  sitemaps: string[],
  patience: Patience & { http: OutboundFiles },
  fail: (url: string, reason: string, message: string) => void,
): Promise<string[]> {
  const pages: string[] = [];
  const queue = [...sitemaps];
  const read = new Set<string>();
  const getBytes = (address: string, init: Parameters<OutboundFiles['getBytes']>[1]) => patience.http.getBytes(address, init);
  while (queue.length > 0 && read.size < maxSitemaps) {
    const url = queue.shift()!;
    if (read.has(url)) continue;
    read.add(url);
    const last = await getPatiently<OutboundFile>(
      url,
      { 'user-agent': crawlerUserAgent },
      { maxRetries: 2, ...patience },
      getBytes,
    );
    if (!last.answer) {
      if (!(last.error instanceof OutboundError)) throw last.error;
      fail(url, last.error.code, `sitemap: ${last.error.message}`);
      continue;
    }
    if (last.answer.status !== 200) {
      fail(url, `http_${last.answer.status}`, `sitemap: answered ${last.answer.status} ${last.answer.statusText}`.trim());
      continue;
    }
    try {
      const sitemap = parseSitemap(last.answer.bytes, url);
      for (const entry of sitemap.urls) (sitemap.kind === 'index' ? queue : pages).push(entry.loc);
    } catch (error) {
      if (!(error instanceof SitemapError)) throw error;
      fail(url, 'sitemap_unreadable', error.message);
    }
  }
  return pages;
}
