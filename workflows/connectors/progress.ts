import { defineQuery, setHandler, workflowInfo } from '@temporalio/workflow';
import type { SyncProgress } from './types.js';

/** Where a sync is: its run, pages read, items sent and position (the Temporal UI's query tab asks it). */
export const syncProgressQuery = defineQuery<SyncProgress>('progress');

/**
 * The progress of the sync this workflow runs, answered to `progress` queries. The run id is the
 * workflow's own first run id, carried on when a long sync continues as new.
 */
export function trackProgress(resume?: Pick<SyncProgress, 'runId' | 'pages' | 'sent'>): SyncProgress {
  const progress: SyncProgress = {
    runId: resume?.runId ?? workflowInfo().runId,
    pages: resume?.pages ?? 0,
    sent: resume?.sent ?? 0,
    position: '',
  };
  setHandler(syncProgressQuery, () => progress);
  return progress;
}
