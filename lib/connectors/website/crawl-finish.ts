import type { IngestionClient } from '#connector-sdk/index.js';
import type { SyncOutcome } from '#workflows/connectors/types.js';
import { finishFullRun, outcomeOf } from '../finish-run.js';
import type { WebsiteConnector } from '../records.js';
import { CrawlRefusedError } from '../sync-failures.js';
import type { SyncState } from '../sync-state.js';
import type { CrawlCounts, CrawlState } from './crawl-state.js';

/** Below this many items kept, losing most of them is not suspicious: a small site may well shrink by half. */
const shrinkGuardFloor = 20;

export interface CrawlFinishOptions {
  connector: Pick<WebsiteConnector, 'id' | 'integrationId' | 'knowledgeBaseId'>;
  runId: string;
  crawlState: Pick<CrawlState, 'counts' | 'failures' | 'forgetUnread' | 'end'>;
  syncState: SyncState;
  client: Pick<IngestionClient, 'cleanup'>;
  /** The tenant asked for this crawl to delete what it no longer finds, however much that is. */
  deletionsConfirmed: boolean;
}

/**
 * Ends a crawl: cleanup deletes the items of pages the crawl did not find (gone, dropped from the
 * sitemap and no longer linked, out of scope now), then the run is recorded with its page counts.
 * Two answers are too suspicious to clean up after, and fail the run with nothing deleted: a site that
 * answered no page at all (an outage), and one that would lose more than half of what the last crawl
 * kept (a login wall, a broken deploy), unless the tenant confirmed it (`confirmDeletions`).
 */
export async function finishCrawl(options: CrawlFinishOptions): Promise<SyncOutcome & { pages: CrawlCounts }> {
  const { connector, runId, crawlState, syncState } = options;
  const finished = await syncState.finished(connector.id, runId);
  if (finished) return { ...outcomeOf(finished), pages: finished.pages ?? {} };
  const pages = await crawlState.counts(connector.id, runId);
  if ((pages.fetched ?? 0) + (pages.unchanged ?? 0) === 0) {
    const reasons = [
      ...Object.entries(pages.failedBy ?? {}).map(([reason, times]) => `${reason} × ${times}`),
      ...(pages.skippedByRobots ? [`kept out by robots.txt × ${pages.skippedByRobots}`] : []),
    ];
    throw new CrawlRefusedError(
      'site_unreachable',
      `The site answered no page${reasons.length > 0 ? ` (${reasons.join(', ')})` : ''}; nothing was deleted. ` +
        'Check that the start URLs and sitemaps answer, and that robots.txt lets the crawler in.',
    );
  }
  const [known, seen] = await Promise.all([syncState.known(connector.id), syncState.seen(connector.id, runId)]);
  const seenIds = new Set(seen);
  const lost = known.filter((id) => !seenIds.has(id)).length;
  if (!options.deletionsConfirmed && known.length >= shrinkGuardFloor && lost * 2 > known.length) {
    throw new CrawlRefusedError(
      'site_shrank',
      `The crawl found ${known.length - lost} of the ${known.length} items the last one kept: cleanup would delete ${lost}, ` +
        'so nothing was deleted. Check the site (a login wall, a broken page); if it really shrank, sync with {"confirmDeletions": true}.',
    );
  }
  const outcome = await finishFullRun({ ...options, state: syncState, extra: { pages } });
  await crawlState.forgetUnread(connector.id, runId);
  await crawlState.end(connector.id, runId);
  return { ...outcome, pages };
}
