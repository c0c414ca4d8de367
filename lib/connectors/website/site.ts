import type { WebsiteSettings } from '../records.js';
import { parseRobots, type RobotsAnswer, type RobotsPolicy } from './robots.js';
import { createScope, type Scope } from './scope.js';
import { looksLikeNonPage, normalizeUrl } from './urls.js';

/** The origins a website connector crawls: those of its start URLs and sitemaps (`https://docs.example`). */
export function originsOf(settings: Pick<WebsiteSettings, 'startUrls' | 'sitemaps'>): string[] {
  const origins = [...settings.startUrls, ...settings.sitemaps].flatMap((address) => {
    const url = normalizeUrl(address);
    return url ? [new URL(url).origin] : [];
  });
  return [...new Set(origins)];
}

/** The scope of a website connector: its origins' hosts, and its include and exclude patterns. */
export function scopeOf(settings: WebsiteSettings): Scope {
  const hosts = originsOf(settings).map((origin) => new URL(origin).host);
  return createScope({ hosts, include: settings.include, exclude: settings.exclude });
}

/** What a crawl step knows of the site: what is in scope, what robots.txt allows, how fast to ask each host. */
export interface Site {
  scope: Scope;
  /** A page the crawl may fetch as a page: in scope, not an image or a download, allowed by robots.txt. */
  verdict(url: string): 'fetch' | 'out_of_scope' | 'not_a_page' | 'disallowed';
  /** The least time between two requests' starts to `host`: the connector's rate, or robots.txt's Crawl-delay. */
  intervalMs(host: string): number;
  robotsOf(host: string): RobotsPolicy | undefined;
}

/** The site as a step sees it, from the settings and the robots.txt answers the crawl read at its start. */
export function siteOf(settings: WebsiteSettings, robotsAnswers: Record<string, string>): Site {
  const scope = scopeOf(settings);
  const policies = new Map(
    Object.entries(robotsAnswers).map(([origin, answer]) => [
      new URL(origin).host,
      parseRobots(`${origin}/robots.txt`, JSON.parse(answer) as RobotsAnswer),
    ]),
  );
  const minIntervalMs = 1000 / settings.requestsPerSecond;
  return {
    scope,
    verdict(url) {
      if (!scope.inScope(url)) return 'out_of_scope';
      if (looksLikeNonPage(url)) return 'not_a_page';
      return policies.get(new URL(url).host)?.allows(url) === false ? 'disallowed' : 'fetch';
    },
    intervalMs: (host) => Math.max(minIntervalMs, (policies.get(host)?.crawlDelaySeconds ?? 0) * 1000),
    robotsOf: (host) => policies.get(host),
  };
}
