import { continueAsNew, workflowInfo } from '@temporalio/workflow';
import { connectorActivities } from './activity-options.js';
import { syncRun } from './sync-run.js';
import type { CmsKind, CmsSyncInput, SyncOutcome } from './types.js';

const kinds: CmsKind[] = ['posts', 'pages'];

/**
 * One sync of a content-management site, started by the connector's schedule. The first activity
 * decides the mode: `incremental` reads only what was modified after the last sync's latest
 * modification, `full` reads everything and then cleans up what the site no longer publishes (when
 * the last full sync is older than the connector's `fullSyncEveryHours`, or one was asked for).
 * Posts, then pages, page by page; the position lives in the workflow, so a restart resumes there.
 */
export async function cmsSyncWorkflow(input: CmsSyncInput): Promise<SyncOutcome> {
  const { connectorId } = input;
  const { page: pages, run: runs } = connectorActivities();
  const { syncCmsPage } = pages;
  const { beginCmsSync, finishCmsSync } = runs;
  return syncRun(runs, connectorId, input.resume, async (progress) => {
    const { runId } = progress;
    const run = input.resume ?? (await beginCmsSync({ connectorId, runId }));
    const { mode, modifiedAfter } = run;
    for (const kind of kinds.slice(kinds.indexOf(input.resume?.kind ?? 'posts'))) {
      let page = input.resume?.kind === kind ? input.resume.page : 1;
      let totalPages = page;
      while (page <= totalPages) {
        progress.position = `${kind} page ${page}`;
        const result = await syncCmsPage({
          connectorId,
          runId,
          kind,
          page,
          mode,
          ...(modifiedAfter ? { modifiedAfter } : {}),
          pagesRead: progress.pages,
        });
        progress.pages += 1;
        progress.sent += result.sent;
        totalPages = result.totalPages;
        page += 1;
        if (page <= totalPages && workflowInfo().continueAsNewSuggested) {
          return continueAsNew<typeof cmsSyncWorkflow>({
            connectorId,
            resume: {
              runId,
              mode,
              ...(modifiedAfter ? { modifiedAfter } : {}),
              kind,
              page,
              pages: progress.pages,
              sent: progress.sent,
            },
          });
        }
      }
    }
    return finishCmsSync({ connectorId, runId });
  });
}
