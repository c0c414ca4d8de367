import { continueAsNew, workflowInfo } from '@temporalio/workflow';
import { connectorActivities } from './activity-options.js';
import { syncRun } from './sync-run.js';
import type { SyncOutcome, WebsiteCrawlInput } from './types.js';

/**
 * One crawl of a website, started by the connector's schedule: the first step reads robots.txt and
 * the sitemaps and seeds the frontier, then each step fetches the next pages and sends their items,
 * until no page is left to fetch; the last cleans up what the crawl did not find. The frontier lives
 * in Redis, so a crawl survives a worker's death (its step is repeated) and continues as new on a
 * large site carrying only its run. `progress` queries show the crawl's counts.
 */
export async function websiteCrawlWorkflow(input: WebsiteCrawlInput): Promise<SyncOutcome> {
  const { connectorId } = input;
  const { page: pages, run: runs } = connectorActivities();
  const { beginWebsiteCrawl, crawlWebsitePages } = pages;
  const { finishWebsiteCrawl } = runs;
  return syncRun(runs, connectorId, input.resume, async (progress) => {
    const { runId } = progress;
    const deletionsConfirmed =
      input.resume?.deletionsConfirmed ?? (await beginWebsiteCrawl({ connectorId, runId })).deletionsConfirmed;
    for (;;) {
      const step = await crawlWebsitePages({ connectorId, runId });
      progress.pages += step.pages;
      progress.sent += step.sent;
      progress.crawl = step.counts;
      progress.position = `${step.remaining} pages to fetch`;
      if (step.remaining === 0) break;
      if (workflowInfo().continueAsNewSuggested) {
        return continueAsNew<typeof websiteCrawlWorkflow>({
          connectorId,
          resume: { runId, deletionsConfirmed, pages: progress.pages, sent: progress.sent },
        });
      }
    }
    return finishWebsiteCrawl({ connectorId, runId, deletionsConfirmed });
  });
}
