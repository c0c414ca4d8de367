import { contentHash, type IngestionClient, type SyncItem } from '#connector-sdk/index.js';
import type { OutboundFiles } from '#platform/outbound/outbound-http.js';
import type { DocumentReader } from '../documents/document-reader.js';
import type { DocumentLimits } from '../documents/limits.js';
import type { WebsiteConnector } from '../records.js';
import type { Patience } from '../retrying-get.js';
import { sectionItems } from '../section-items.js';
import { sendItems } from '../send-items.js';
import type { SyncState } from '../sync-state.js';
import type { CrawlCounts, CrawlState, CrawlStep, PageMemory } from './crawl-state.js';
import { fetchPage, type PageOutcome } from './fetch-page.js';
import { createHostGates } from './host-gates.js';
import { siteOf } from './site.js';

/** Told of each step's page counts when it commits (the worker's metrics; a step repeated after a crash counts twice). */
export interface CrawlObserver {
  committed(counts: Partial<Record<string, number>>): void;
}

export interface CrawlStepOptions {
  connector: Pick<WebsiteConnector, 'id' | 'integrationId' | 'knowledgeBaseId' | 'website'>;
  runId: string;
  crawlState: CrawlState;
  syncState: SyncState;
  client: Pick<IngestionClient, 'ingestAll' | 'ingest'>;
  patience: Patience & { http: OutboundFiles };
  documentLimits: DocumentLimits;
  readDocument: DocumentReader['read'];
  readPage: DocumentReader['readPage'];
  /** No page is begun after this (epoch ms): the step commits what it did and the next goes on. */
  stopStartingAt: number;
  /** Told after each page and each batch sent (the activity's heartbeat). */
  progress: () => void;
  observer?: CrawlObserver;
  now?: () => number;
}

export interface CrawlStepResult {
  /** Pages this step took from the frontier. */
  pages: number;
  /** Items it sent to the ingestion API. */
  sent: number;
  /** Pages still in the frontier. */
  remaining: number;
  counts: CrawlCounts;
}

/**
 * One step of a crawl: the next pages of the frontier, fetched politely (per host: the connector's
 * concurrency, its rate or robots.txt's Crawl-delay), each becoming the items of its sections; those
 * are sent through the public ingestion API as they come, a bulk call's worth at a time, while the
 * next pages are fetched (unchanged ones are not sent, see `sendItems`), and the step is committed: its pages leave the frontier, the links they had join it. A page that did not change (304)
 * keeps its items, and so does one the site failed to answer this time (an outage deletes nothing).
 */
export async function crawlStep(options: CrawlStepOptions): Promise<CrawlStepResult> {
  const { connector, runId, crawlState, syncState, progress } = options;
  const { website } = connector;
  const now = options.now ?? Date.now;
  const [batch, robots, lastStarts] = await Promise.all([
    crawlState.next(connector.id, runId, batchSize(website.requestsPerSecond)),
    crawlState.robots(connector.id, runId),
    crawlState.lastStarts(connector.id, runId),
  ]);
  const site = siteOf(website, robots);
  const memories = await crawlState.memories(connector.id, batch);
  const gates = createHostGates({ concurrency: website.concurrency, intervalMs: site.intervalMs, lastStarts });
  const step: CrawlStep = { done: [], found: [], counts: {}, failures: [], memories: new Map() };
  const sender = itemSender((items) =>
    sendItems({ client: options.client, state: syncState, connector, items, priority: 'low', runId, onBatch: progress }),
  );
  const kept: string[] = [];
  const count = (name: keyof CrawlStep['counts']) => (step.counts[name] = (step.counts[name] ?? 0) + 1);

  /** What a page's outcome means for the crawl: its items, its links, its memory. */
  async function take(url: string, memory: PageMemory | undefined, outcome: PageOutcome): Promise<void> {
    switch (outcome.kind) {
      case 'unchanged':
        count('unchanged');
        kept.push(...memory!.items);
        step.found.push(...memory!.links);
        step.memories.set(url, { ...memory!, runId });
        return;
      case 'gone':
        count('gone');
        step.memories.set(url, null);
        return;
      case 'out_of_scope':
        count('outOfScope');
        step.memories.set(url, null);
        return;
      case 'not_a_page':
        count('notPages');
        step.memories.set(url, null);
        return;
      case 'failed':
        step.failures.push({ url, reason: outcome.reason, message: outcome.message, at: new Date(now()).toISOString() });
        if (outcome.transient && memory) {
          kept.push(...memory.items);
          step.found.push(...memory.links);
          step.memories.set(url, { ...memory, runId });
        } else {
          step.memories.set(url, null);
        }
        return;
      case 'read': {
        count('fetched');
        step.found.push(...outcome.links);
        const remembered = (pageItems: string[]): PageMemory => ({
          ...(outcome.etag ? { etag: outcome.etag } : {}),
          ...(outcome.lastModified ? { lastModified: outcome.lastModified } : {}),
          items: pageItems,
          links: outcome.links,
          runId,
        });
        const pageItems = await itemsOf(url, outcome);
        step.memories.set(url, remembered(pageItems.map((item) => item.externalId)));
        sender.add(pageItems);
        if (pageItems.length > 0) count('sent');
        return;
      }
    }
  }

  /** A page's items, unless it asks not to be indexed or another page of this crawl has its address or text. */
  async function itemsOf(url: string, page: Extract<PageOutcome, { kind: 'read' }>): Promise<SyncItem[]> {
    if (page.noindex) {
      count('noindex');
      return [];
    }
    const pageItems = sectionItems(page.document, {
      id: page.canonical,
      fallbackTitle: page.canonical,
      url: page.canonical,
      sourceData: { site: new URL(page.canonical).host },
    });
    const text = contentHash(page.document.title ?? '', pageItems.map((item) => item.data.content).join('\n'));
    const holder =
      (await crawlState.claim(connector.id, runId, `url:${page.canonical}`, url)) ??
      (pageItems.length > 0 ? await crawlState.claim(connector.id, runId, `text:${text}`, url) : undefined);
    if (holder) {
      count('duplicates');
      return [];
    }
    return pageItems;
  }

  await Promise.all(
    batch.map(async (url) => {
      const verdict = site.verdict(url);
      if (verdict !== 'fetch') {
        step.done.push(url);
        count(verdict === 'disallowed' ? 'skippedByRobots' : verdict === 'out_of_scope' ? 'outOfScope' : 'notPages');
        if (memories.has(url)) step.memories.set(url, null);
        return;
      }
      const host = new URL(url).host;
      const outcome = await gates.run(host, async () => {
        if (now() >= options.stopStartingAt) return undefined;
        return fetchPage(url, memories.get(url), { ...options, inScope: site.scope.inScope });
      });
      if (!outcome) return;
      await take(url, memories.get(url), outcome);
      step.done.push(url);
      progress();
    }),
  );

  const sent = await sender.finish();
  await syncState.noteUnchanged(connector.id, runId, kept);
  await crawlState.commit(
    connector.id,
    runId,
    { ...step, maxInFlight: gates.maxInFlight(), lastStarts: gates.lastStarts() },
    website.maxPages,
  );
  options.observer?.committed({ ...step.counts, failed: step.failures.length });
  const [remaining, counts] = await Promise.all([
    crawlState.remaining(connector.id, runId),
    crawlState.counts(connector.id, runId),
  ]);
  return { pages: step.done.length, sent, remaining, counts };
}

/** Pages one step takes: about half a minute of the connector's rate, 10 to 100. */
export function batchSize(requestsPerSecond: number): number {
  return Math.min(100, Math.max(10, Math.round(requestsPerSecond * 30)));
}

/** Items are sent once this many have come: one bulk call's worth. */
const itemsPerSend = 100;

/**
 * Sends items as pages give them, `itemsPerSend` at a time and one call after another, so that the
 * service ingests a step's first pages while its last are fetched; `finish` sends the rest and
 * resolves to how many were sent, or rejects with the first failure (later sends are not made).
 */
function itemSender(send: (items: SyncItem[]) => Promise<number>) {
  let pending: SyncItem[] = [];
  let sent = 0;
  let sending = Promise.resolve();
  const flush = () => {
    const items = pending;
    pending = [];
    sending = sending.then(async () => {
      sent += await send(items);
    });
    // Handled at `finish`; a failure waits there, not as an unhandled rejection.
    sending.catch(() => undefined);
  };
  return {
    add(items: SyncItem[]): void {
      pending.push(...items);
      if (pending.length >= itemsPerSend) flush();
    },
    async finish(): Promise<number> {
      if (pending.length > 0) flush();
      await sending;
      return sent;
    },
  };
}
