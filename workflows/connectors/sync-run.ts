import { ActivityFailure, ContinueAsNew } from '@temporalio/workflow';
import type { Activities } from '#activities/index.js';
import { trackProgress } from './progress.js';
import type { SyncProgress } from './types.js';

/**
 * Runs one sync of a connector: its progress answered to queries (the run id is the workflow's own
 * first run id, carried on by `resume`), and, when it fails, why recorded on the connector (what its
 * status shows) before the workflow fails with the same error. Continuing as new is not a failure.
 */
export async function syncRun<T>(
  { failConnectorSync }: Pick<Activities, 'failConnectorSync'>,
  connectorId: string,
  resume: Pick<SyncProgress, 'runId' | 'pages' | 'sent'> | undefined,
  sync: (progress: SyncProgress) => Promise<T>,
): Promise<T> {
  const progress = trackProgress(resume);
  try {
    return await sync(progress);
  } catch (error) {
    if (error instanceof ContinueAsNew) throw error;
    await failConnectorSync({ connectorId, runId: progress.runId, message: reasonOf(error) });
    throw error;
  }
}

/** An activity's failure reads best as its cause: the source's or the ingestion API's own words. */
function reasonOf(error: unknown): string {
  if (error instanceof ActivityFailure && error.cause) return error.cause.message;
  return error instanceof Error ? error.message : String(error);
}
