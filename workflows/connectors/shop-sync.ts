import { continueAsNew, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '#activities/index.js';
import { connectorActivityOptions } from './activity-options.js';
import { failedRun } from './failed-run.js';
import { syncProgressQuery } from './queries.js';
import type { ShopSyncInput, SyncOutcome, SyncProgress } from './types.js';

const { beginShopSync, syncShopPage, finishShopSync, failConnectorSync } = proxyActivities<Activities>(connectorActivityOptions);

/**
 * One full sync of a shop, started by the connector's schedule: reads the products page by page
 * (the cursor lives in the workflow, so a sync interrupted by a worker restart goes on from the page
 * it was at), sends each page to the ingestion API, then asks the service to delete what the shop no
 * longer has. Undefined when the connector was removed meanwhile.
 */
export async function shopSyncWorkflow(input: ShopSyncInput): Promise<SyncOutcome | undefined> {
  const { connectorId } = input;
  const runId = input.resume?.runId ?? workflowInfo().runId;
  const progress: SyncProgress = { runId, pages: input.resume?.pages ?? 0, sent: input.resume?.sent ?? 0, position: '' };
  setHandler(syncProgressQuery, () => progress);

  return failedRun(
    (message) => failConnectorSync({ connectorId, runId, message }),
    async () => {
      const storefront = input.resume?.storefront ?? (await beginShopSync({ connectorId, runId }));
      if (!storefront) return undefined;
      let cursor = input.resume?.cursor;
      do {
        progress.position = cursor ?? 'first page';
        const page = await syncShopPage({ connectorId, runId, storefront, ...(cursor ? { cursor } : {}) });
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
    },
  );
}
