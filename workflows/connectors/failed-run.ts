import { ActivityFailure, ContinueAsNew } from '@temporalio/workflow';

/**
 * Runs a sync; when it fails, records why on the connector (what its status shows) before the
 * workflow fails with the same error. Continuing as new is not a failure.
 */
export async function failedRun<T>(record: (message: string) => Promise<void>, sync: () => Promise<T>): Promise<T> {
  try {
    return await sync();
  } catch (error) {
    if (error instanceof ContinueAsNew) throw error;
    await record(reasonOf(error));
    throw error;
  }
}

/** An activity's failure reads best as its cause: the source's or the ingestion API's own words. */
function reasonOf(error: unknown): string {
  if (error instanceof ActivityFailure && error.cause) return error.cause.message;
  return error instanceof Error ? error.message : String(error);
}
