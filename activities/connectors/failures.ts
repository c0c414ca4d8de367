import { ApplicationFailure } from '@temporalio/activity';
import { permanentCode } from '#connectors/sync-failures.js';

/**
 * Runs a connector's step, telling Temporal not to retry failures that retrying cannot fix
 * (`permanentCode`): those end the run at once with the error's message (a source's status in our
 * words, the API's own words); anything else is retried.
 */
export async function failingPermanently<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    const code = permanentCode(error);
    if (!code) throw error;
    throw ApplicationFailure.create({ type: code, message: (error as Error).message, nonRetryable: true, cause: error as Error });
  }
}
