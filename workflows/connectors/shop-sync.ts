import { continueAsNew, workflowInfo } from '@temporalio/workflow';
import { connectorActivities } from './activity-options.js';
import { syncRun } from './sync-run.js';
import type { ShopSyncInput, SyncOutcome } from './types.js';

/**
 * One full sync of a shop, started by the connector's schedule: reads the products page by page
 * (the cursor lives in the workflow, so a sync interrupted by a worker restart goes on from the page
 * it was at), sends each page to the ingestion API, then asks the service to delete what the shop no
 * longer has.
 */
export async function shopSyncWorkflow(input: ShopSyncInput): Promise<SyncOutcome> {
  const { connectorId } = input;
  const { page: pages, run: runs } = connectorActivities();
  const { beginShopSync, syncShopPage } = pages;
  const { finishShopSync } = runs;
  return syncRun(runs, connectorId, input.resume, async (progress) => {
    const { runId } = progress;
    const storefront = input.resume?.storefront ?? (await beginShopSync({ connectorId, runId }));
    let cursor = input.resume?.cursor;
    do {
      progress.position = cursor ?? 'first page';
      const page = await syncShopPage({
        connectorId,
        runId,
        storefront,
        ...(cursor ? { cursor } : {}),
        pagesRead: progress.pages,
      });
      progress.pages += 1;
      progress.sent += page.sent;
      cursor = page.nextCursor;
      if (cursor && workflowInfo().continueAsNewSuggested) {
        return continueAsNew<typeof shopSyncWorkflow>({
          connectorId,
          resume: { runId, storefront, cursor, pages: progress.pages, sent: progress.sent },
        });
      }
    } while (cursor);
    return finishShopSync({ connectorId, runId });
  });
}
