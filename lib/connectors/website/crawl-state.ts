import { tagUnavailable } from '#platform/dependency-errors.js';
import type { RedisClient } from '#platform/redis.js';
import type { CrawlCount, CrawlCounts } from '#workflows/connectors/types.js';
import { connectorKeys, crawlParts, type CrawlPart } from '../redis-keys.js';

/** What a crawl remembers of a page between crawls: how to ask whether it changed, and what it gave. */
export interface PageMemory {
  etag?: string;
  lastModified?: string;
  /** The external ids of the items the page became (none: a duplicate, a `noindex` page). */
  items: string[];
  /** The in-scope links it had: an unchanged page (304) has no body to read them from. */
  links: string[];
  /** The crawl that last read it (a page no crawl reads any more is forgotten when one finishes). */
  runId: string;
}

export type { CrawlCount, CrawlCounts } from '#workflows/connectors/types.js';

/** A page that could not be taken, as the connector's status lists it. */
export interface CrawlFailure {
  url: string;
  /** `http_404`, `timeout`, `unreachable`, `too_large`, `robots_unreachable`, `not_readable`, … */
  reason: string;
  message: string;
  at: string;
}

/** What one step of a crawl did, committed at once (see `createCrawlState`). */
export interface CrawlStep {
  /** The pages the step took from the frontier (fetched, or skipped for a reason). */
  done: string[];
  /** Links the step found, in order: those not found before join the frontier, up to the page cap. */
  found: string[];
  counts: Partial<Record<Exclude<CrawlCount, 'found' | 'overCap' | 'failed' | 'maxInFlight'>, number>>;
  /** The most requests the step had in flight to one host. */
  maxInFlight?: number;
  /** When the step last asked each host (epoch ms): the next step keeps its distance. */
  lastStarts?: Record<string, number>;
  failures: CrawlFailure[];
  /** Memories to keep (a page read) or drop (a page gone), by URL. */
  memories: Map<string, PageMemory | null>;
}

/** The failures a crawl keeps to show: the latest, this many. */
const keptFailures = 100;
/** A crawl's keys live a week past its last step (a run ended by a removal leaves them to expire). */
const crawlTtlSeconds = 7 * 24 * 3600;

/**
 * One website crawl's state in Redis, beside the connector's sync state (which keeps the run and the
 * items it saw, for cleanup): the frontier of pages to fetch in the order they were found, the set of
 * every page found (at most the connector's page cap), the canonical URLs and content hashes already
 * claimed by a page (duplicates count once), counts and failures; and, across crawls, each page's
 * memory. Only one step of a crawl runs at a time (the workflow's loop); each commits in one
 * transaction: a step retried after a worker died before it committed repeats its fetches and changes
 * nothing twice; one that died just after its commit is taken again only as far as its counts go
 * (they may count its pages twice: progress, not a ledger).
 */
export function createCrawlState(redis: RedisClient, prefix: string) {
  const keys = connectorKeys(prefix);
  const key = (connectorId: string, runId: string, part: CrawlPart) => keys.crawl(connectorId, runId, part);

  /** `found` less those already found, without repeats, cut at what the cap leaves. */
  async function newPages(connectorId: string, runId: string, found: string[], maxPages: number) {
    const unique = [...new Set(found)];
    if (unique.length === 0) return { fresh: [] as string[], overCap: [] as string[] };
    const foundKey = key(connectorId, runId, 'found');
    const [known, total] = await Promise.all([redis.smIsMember(foundKey, unique), redis.sCard(foundKey)]);
    const unseen = unique.filter((_, i) => !known[i]);
    const room = Math.max(0, maxPages - total);
    return { fresh: unseen.slice(0, room), overCap: unseen.slice(room) };
  }

  function addPages(multi: ReturnType<RedisClient['multi']>, connectorId: string, runId: string, fresh: string[], order: number) {
    if (fresh.length === 0) return;
    multi
      .sAdd(key(connectorId, runId, 'found'), fresh)
      .zAdd(
        key(connectorId, runId, 'frontier'),
        fresh.map((value, i) => ({ score: order + i, value })),
        { NX: true },
      )
      .hIncrBy(key(connectorId, runId, 'counts'), 'found', fresh.length);
  }

  function expireAll(multi: ReturnType<RedisClient['multi']>, connectorId: string, runId: string) {
    for (const part of crawlParts) multi.expire(key(connectorId, runId, part), crawlTtlSeconds);
  }

  /** The next order number: pages join the frontier after every page before them. */
  async function nextOrder(connectorId: string, runId: string): Promise<number> {
    const [last] = await redis.zRangeWithScores(key(connectorId, runId, 'frontier'), -1, -1);
    const found = await redis.sCard(key(connectorId, runId, 'found'));
    return Math.max(found, (last?.score ?? -1) + 1);
  }

  return tagUnavailable('redis', {
    /** Seeds the frontier with the start pages (a retried seeding adds nothing twice); how many are new. */
    async seed(connectorId: string, runId: string, urls: string[], maxPages: number): Promise<number> {
      const { fresh, overCap } = await newPages(connectorId, runId, urls, maxPages);
      const multi = redis.multi();
      addPages(multi, connectorId, runId, fresh, await nextOrder(connectorId, runId));
      if (overCap.length > 0) multi.pfAdd(key(connectorId, runId, 'overCap'), overCap);
      expireAll(multi, connectorId, runId);
      await multi.exec();
      return fresh.length;
    },

    /** The next `count` pages to fetch, oldest found first (they stay in the frontier until their step commits). */
    next: (connectorId: string, runId: string, count: number): Promise<string[]> =>
      redis.zRange(key(connectorId, runId, 'frontier'), 0, count - 1),

    /** Pages still to fetch. */
    remaining: (connectorId: string, runId: string): Promise<number> => redis.zCard(key(connectorId, runId, 'frontier')),

    /**
     * Claims `value` (a canonical URL, a content hash) for the page at `url`; the page that holds it
     * already, when another does. A retried step finds its own claims.
     */
    async claim(connectorId: string, runId: string, value: string, url: string): Promise<string | undefined> {
      const claims = key(connectorId, runId, 'claims');
      await redis.hSetNX(claims, value, url);
      const holder = await redis.hGet(claims, value);
      return holder === url ? undefined : (holder ?? undefined);
    },

    /** Commits a step: its pages leave the frontier, new links join it, counts, failures and memories are kept. */
    async commit(connectorId: string, runId: string, step: CrawlStep, maxPages: number): Promise<void> {
      const { fresh, overCap } = await newPages(connectorId, runId, step.found, maxPages);
      const order = await nextOrder(connectorId, runId);
      const multi = redis.multi();
      addPages(multi, connectorId, runId, fresh, order);
      const counts = key(connectorId, runId, 'counts');
      if (overCap.length > 0) multi.pfAdd(key(connectorId, runId, 'overCap'), overCap);
      for (const [name, value] of Object.entries(step.counts)) if (value) multi.hIncrBy(counts, name, value);
      for (const failure of step.failures) multi.hIncrBy(counts, `failed:${failure.reason}`, 1);
      const mostBefore = Number((await redis.hGet(counts, 'maxInFlight')) ?? 0);
      if ((step.maxInFlight ?? 0) > mostBefore) multi.hSet(counts, 'maxInFlight', step.maxInFlight!);
      if (step.failures.length > 0) {
        const failures = key(connectorId, runId, 'failures');
        multi.lPush(
          failures,
          step.failures.map((failure) => JSON.stringify(failure)),
        );
        multi.lTrim(failures, 0, keptFailures - 1);
      }
      const kept = [...step.memories].filter((entry): entry is [string, PageMemory] => entry[1] !== null);
      const dropped = [...step.memories].filter(([, memory]) => memory === null).map(([url]) => url);
      if (kept.length > 0)
        multi.hSet(keys.crawlMemory(connectorId), Object.fromEntries(kept.map(([url, memory]) => [url, JSON.stringify(memory)])));
      if (dropped.length > 0) multi.hDel(keys.crawlMemory(connectorId), dropped);
      if (step.done.length > 0) multi.zRem(key(connectorId, runId, 'frontier'), step.done);
      const lastStarts = Object.entries(step.lastStarts ?? {}).map(([host, at]) => [host, String(at)]);
      if (lastStarts.length > 0) multi.hSet(key(connectorId, runId, 'hosts'), Object.fromEntries(lastStarts));
      expireAll(multi, connectorId, runId);
      await multi.exec();
    },

    /** When the crawl last asked each host (epoch ms). */
    async lastStarts(connectorId: string, runId: string): Promise<Record<string, number>> {
      const stored = await redis.hGetAll(key(connectorId, runId, 'hosts'));
      return Object.fromEntries(Object.entries(stored).map(([host, at]) => [host, Number(at)]));
    },

    /** What the crawl has done so far. */
    async counts(connectorId: string, runId: string): Promise<CrawlCounts> {
      const [stored, overCap] = await Promise.all([
        redis.hGetAll(key(connectorId, runId, 'counts')),
        redis.pfCount(key(connectorId, runId, 'overCap')),
      ]);
      const counts: CrawlCounts = overCap > 0 ? { overCap } : {};
      for (const [name, value] of Object.entries(stored)) {
        if (name.startsWith('failed:')) {
          counts.failedBy = { ...counts.failedBy, [name.slice('failed:'.length)]: Number(value) };
          counts.failed = (counts.failed ?? 0) + Number(value);
        } else {
          counts[name as CrawlCount] = Number(value);
        }
      }
      return counts;
    },

    /** The latest failures, newest first. */
    async failures(connectorId: string, runId: string): Promise<CrawlFailure[]> {
      const stored = await redis.lRange(key(connectorId, runId, 'failures'), 0, keptFailures - 1);
      return stored.map((failure) => JSON.parse(failure) as CrawlFailure);
    },

    /** The robots.txt answers a crawl read at its start, by host (kept as read: each step parses them). */
    async saveRobots(connectorId: string, runId: string, answers: Record<string, string>): Promise<void> {
      const multi = redis.multi().hSet(key(connectorId, runId, 'robots'), answers);
      expireAll(multi, connectorId, runId);
      await multi.exec();
    },

    robots: (connectorId: string, runId: string): Promise<Record<string, string>> =>
      redis.hGetAll(key(connectorId, runId, 'robots')),

    /** What earlier crawls learnt of these pages, by URL. */
    async memories(connectorId: string, urls: string[]): Promise<Map<string, PageMemory>> {
      if (urls.length === 0) return new Map();
      const stored = await redis.hmGet(keys.crawlMemory(connectorId), urls);
      return new Map(urls.flatMap((url, i) => (stored[i] ? [[url, JSON.parse(stored[i]) as PageMemory] as const] : [])));
    },

    /** Forgets the pages crawl `runId` did not read (they are gone, or out of its reach now). */
    async forgetUnread(connectorId: string, runId: string): Promise<void> {
      // Scanned, not read whole: a large site's memories (their links) run to tens of megabytes.
      const unread: string[] = [];
      for await (const { field, value } of redis.hScanIterator(keys.crawlMemory(connectorId), { COUNT: 500 })) {
        if ((JSON.parse(value) as PageMemory).runId !== runId) unread.push(field);
      }
      for (let start = 0; start < unread.length; start += 1000) {
        await redis.hDel(keys.crawlMemory(connectorId), unread.slice(start, start + 1000));
      }
    },

    /**
     * Drops a crawl's working keys (its run ended; its counts were copied to the run's summary); its
     * failures stay for the connector's status until they expire.
     */
    async end(connectorId: string, runId: string): Promise<void> {
      await redis.del(crawlParts.filter((part) => part !== 'failures').map((part) => key(connectorId, runId, part)));
    },
  });
}

export type CrawlState = ReturnType<typeof createCrawlState>;
