import robotsParserModule from 'robots-parser';
import { crawlerUserAgent } from './user-agent.js';

/**
 * robots-parser is CommonJS (`module.exports = function`) but its types declare an ES default export, which TypeScript
 * under NodeNext then reads as `module.exports.default`. Node hands an ES import the function itself.
 */
const robotsParser = robotsParserModule as unknown as typeof robotsParserModule.default;

/**
 * What a site's robots.txt lets the crawler do (RFC 9309), decided once per crawl and origin.
 *
 * - `rules`: the file answered 2xx; `allows` follows the group naming our product token, else the `*` group, else
 *   everything is allowed.
 * - `allow_all`: the file is unavailable (3xx left over after redirects, or 4xx, 404 included): RFC 9309 §2.3.1.3 says
 *   a crawler may access anything.
 * - `disallow_all`: the file is unreachable (5xx, 429, no answer at all, or a status RFC 9309 does not cover):
 *   §2.3.1.4 says assume a complete disallow. The crawl then fails with `reason` rather than guess: a site whose
 *   robots.txt errors may be one that asked not to be crawled.
 */
export interface RobotsPolicy {
  /** Whether the crawler may fetch this URL. A URL on another origin than the robots.txt is never allowed by it. */
  allows(url: string): boolean;
  /** Our group's `Crawl-delay` (else the `*` group's), at most `maxCrawlDelaySeconds`; undefined when none is set. */
  crawlDelaySeconds?: number;
  /** The `Sitemap:` lines, as written. */
  sitemaps: string[];
  state: 'rules' | 'allow_all' | 'disallow_all';
  /** Why the policy is not `rules`, for the crawl's report. */
  reason?: string;
}

export type RobotsAnswer = { status: number; text: string } | 'unreachable';

/** RFC 9309 §2.5: a crawler must parse at least 500 KiB; what follows is ignored. */
export const maxRobotsBytes = 500 * 1024;

/** A longer delay would stretch a crawl over days; the crawler keeps its own minimum politeness besides. */
export const maxCrawlDelaySeconds = 60;

/**
 * The first 500 KiB of the file, cut at the last line break before the limit: a rule cut in half could allow more
 * than the site meant (`Disallow: /private-docs` becoming `/pri` is harmless, `Allow: /a/b` becoming `/a` is not).
 * A byte-order mark is dropped: robots-parser would read `\uFEFFUser-agent` as an unknown line and lose the group.
 */
function capRobotsText(text: string): string {
  const withoutMark = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const bytes = Buffer.from(withoutMark, 'utf8');
  if (bytes.length <= maxRobotsBytes) return withoutMark;
  const head = bytes.subarray(0, maxRobotsBytes);
  const lastBreak = Math.max(head.lastIndexOf(0x0a), head.lastIndexOf(0x0d));
  return head.subarray(0, lastBreak === -1 ? 0 : lastBreak).toString('utf8');
}

function cappedCrawlDelay(delay: number | undefined): number | undefined {
  if (delay === undefined || Number.isNaN(delay) || delay <= 0) return undefined;
  return Math.min(delay, maxCrawlDelaySeconds);
}

function wholeSitePolicy(state: 'allow_all' | 'disallow_all', reason: string): RobotsPolicy {
  return { allows: () => state === 'allow_all', sitemaps: [], state, reason };
}

/**
 * The policy of `robotsUrl` (the `/robots.txt` of the origin being crawled, as asked for: where redirects ended
 * does not matter, the rules apply to the origin asked about) given what fetching it gave.
 * Groups are matched by product token (robots-parser lower-cases the user agent and cuts it at `/`).
 */
export function parseRobots(robotsUrl: string, answer: RobotsAnswer): RobotsPolicy {
  if (answer === 'unreachable') {
    return wholeSitePolicy('disallow_all', `${robotsUrl} could not be fetched: RFC 9309 treats the whole site as disallowed`);
  }
  const { status } = answer;
  if (status === 429 || (status >= 500 && status <= 599)) {
    return wholeSitePolicy('disallow_all', `${robotsUrl} answered ${status}: RFC 9309 treats the whole site as disallowed`);
  }
  if (status >= 300 && status <= 499) {
    return wholeSitePolicy('allow_all', `${robotsUrl} answered ${status}: no robots.txt, so everything is allowed`);
  }
  if (status < 200 || status > 299) {
    return wholeSitePolicy(
      'disallow_all',
      `${robotsUrl} answered ${status}, which RFC 9309 does not cover: treated as disallowed`,
    );
  }
  const robots = robotsParser(robotsUrl, capRobotsText(answer.text));
  return {
    allows: (url) => robots.isAllowed(url, crawlerUserAgent) === true,
    crawlDelaySeconds: cappedCrawlDelay(robots.getCrawlDelay(crawlerUserAgent)),
    sitemaps: robots.getSitemaps(),
    state: 'rules',
  };
}
