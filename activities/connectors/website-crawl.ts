import { connectorOf, openConnector } from '#connectors/open-connector.js';
import { finishCrawl } from '#connectors/website/crawl-finish.js';
import { startCrawl } from '#connectors/website/crawl-start.js';
import { crawlStep, type CrawlStepResult } from '#connectors/website/crawl-step.js';
import type { SyncOutcome } from '#workflows/connectors/types.js';
import { Context } from '@temporalio/activity';
import { withHeartbeats } from '../heartbeats.js';
import type { ConnectorActivityDeps } from './deps.js';
import { failingPermanently } from './failures.js';
import { createRunAnnouncements } from './run-announcements.js';

/** A step begins no page after this share of its start-to-close: the rest is for sending and committing. */
const fetchingShare = 0.5;

/** The crawl of a website connector, one activity per phase; the crawl itself is `lib/connectors/website/`. */
export function createWebsiteCrawlActivities(deps: ConnectorActivityDeps) {
  const { connectors, syncState, crawlState } = deps;
  const announce = createRunAnnouncements(deps);

  return {
    /**
     * Begins run `runId` (always full: a crawl sees the whole site) and seeds its frontier; tells
     * whether the tenant confirmed that this crawl may delete however much it no longer finds.
     */
    beginWebsiteCrawl: ({ connectorId, runId }: { connectorId: string; runId: string }) =>
      failingPermanently(async (): Promise<{ seeded: number; deletionsConfirmed: boolean }> => {
        const connector = await connectorOf(connectors, connectorId, 'website');
        await syncState.beginRun(connectorId, runId, 'full');
        const { seeded } = await startCrawl({ connector, runId, crawlState, patience: deps.websitePatience() });
        return { seeded, deletionsConfirmed: await syncState.takeDeletionsConfirmation(connectorId) };
      }),

    /** The next pages of the frontier, fetched, read and sent (see `crawlStep`). */
    crawlWebsitePages: ({ connectorId, runId }: { connectorId: string; runId: string }) =>
      failingPermanently(async (): Promise<CrawlStepResult> => {
        const { connector, secrets } = await openConnector(connectors, connectorId, 'website');
        const { startToCloseTimeoutMs } = Context.current().info;
        return crawlStep({
          connector,
          runId,
          crawlState,
          syncState,
          client: deps.ingestionClient(secrets.ingestionKey),
          patience: deps.websitePatience(),
          documentLimits: deps.documentLimits,
          readDocument: (bytes, options) => deps.documents.read(bytes, options),
          readPage: (html, url) => deps.documents.readPage(html, url),
          stopStartingAt: Date.now() + startToCloseTimeoutMs * fetchingShare,
          progress: deps.progress,
          ...(deps.crawlObserver ? { observer: deps.crawlObserver } : {}),
        });
      }),

    /** Cleans up after a crawl that found enough of the site, and records it (see `finishCrawl`). */
    finishWebsiteCrawl: (input: { connectorId: string; runId: string; deletionsConfirmed: boolean }) =>
      failingPermanently(() =>
        withHeartbeats(async (): Promise<SyncOutcome> => {
          const { connector, secrets } = await openConnector(connectors, input.connectorId, 'website');
          const { pages, ...outcome } = await finishCrawl({
            connector,
            runId: input.runId,
            crawlState,
            syncState,
            client: deps.ingestionClient(secrets.ingestionKey),
            deletionsConfirmed: input.deletionsConfirmed,
          });
          await announce.finished(input.connectorId, { ...outcome, pages });
          return outcome;
        }),
      ),
  };
}
