import { WorkflowFailedError, WorkflowNotFoundError, type Client, type WorkflowHandle } from '@temporalio/client';
import { tagUnavailable } from '#platform/dependency-errors.js';
import { cleanupWorkflowId } from '#workflows/ids.js';
import type { CleanupResult, CleanupWorkflow } from '#workflows/ingestion/types.js';
import { knowledgeBaseIdKey, tenantIdKey } from '#workflows/search-attributes.js';
import { cleanupIdOf, type CleanupLists } from './cleanup-lists.js';

export interface CleanupRequest {
  tenantId: string;
  knowledgeBaseId: string;
  sourceOrigin: string;
  keepExternalIds: string[];
}

/** What the published interface answers once a cleanup is over. */
export interface CleanupOutcome {
  deleted: number;
  orphanedExternalIds: string[];
}

/** A cleanup over (`completed`, with what it deleted), or still running: follow it by its id. */
export type CleanupState =
  { state: 'completed'; cleanupId: string; outcome: CleanupOutcome } | { state: 'running'; cleanupId: string };

/** The cleanup ended without completing (its keep list expired, or it was terminated): send it again. */
export class CleanupFailedError extends Error {
  constructor(readonly cleanupId: string) {
    super(`Cleanup ${cleanupId} ended without completing: send it again.`);
    this.name = 'CleanupFailedError';
  }
}

/**
 * Cleanups of an origin: each is a workflow named by the tenant and a digest of the request
 * (`cleanupIdOf`), so the same request sent while it runs attaches to it rather than starting another;
 * sent after it ended, it runs again (the origin may have new orphans). The keep list is staged in
 * Redis first. `run` waits up to `waitMs` for the outcome, then answers that it runs (F15).
 */
export function createCleanupClient(
  temporal: Client,
  taskQueue: string,
  lists: Pick<CleanupLists, 'stage' | 'deleted'>,
  { waitMs }: { waitMs: number },
) {
  const handleOf = (tenantId: string, cleanupId: string) =>
    temporal.workflow.getHandle<CleanupWorkflow>(cleanupWorkflowId(tenantId, cleanupId));

  async function outcomeOf(tenantId: string, cleanupId: string, result: CleanupResult): Promise<CleanupOutcome> {
    const orphanedExternalIds = result.orphanedExternalIds ?? (await lists.deleted(tenantId, cleanupId, result.deletedList!));
    return { deleted: result.deleted, orphanedExternalIds };
  }

  /** The outcome once the workflow ended within `ms`; undefined while it still runs. */
  async function resultWithin(handle: WorkflowHandle<CleanupWorkflow>, cleanupId: string, ms: number) {
    const deadline = AbortSignal.timeout(ms);
    try {
      return await temporal.withAbortSignal(deadline, () => handle.result());
    } catch (error) {
      if (deadline.aborted) return undefined;
      if (error instanceof WorkflowFailedError) throw new CleanupFailedError(cleanupId);
      throw error;
    }
  }

  return tagUnavailable('temporal', {
    async run(request: CleanupRequest): Promise<CleanupState> {
      const { tenantId, knowledgeBaseId, sourceOrigin } = request;
      const cleanupId = cleanupIdOf(request);
      await lists.stage(tenantId, cleanupId, request.keepExternalIds);
      const handle = await temporal.workflow.start<CleanupWorkflow>('cleanupWorkflow', {
        workflowId: cleanupWorkflowId(tenantId, cleanupId),
        taskQueue,
        args: [{ tenantId, knowledgeBaseId, sourceOrigin, cleanupId }],
        workflowIdConflictPolicy: 'USE_EXISTING',
        workflowIdReusePolicy: 'ALLOW_DUPLICATE',
        typedSearchAttributes: [
          { key: tenantIdKey, value: tenantId },
          { key: knowledgeBaseIdKey, value: knowledgeBaseId },
        ],
      });
      const result = await resultWithin(handle, cleanupId, waitMs);
      if (!result) return { state: 'running', cleanupId };
      return { state: 'completed', cleanupId, outcome: await outcomeOf(tenantId, cleanupId, result) };
    },

    /** The tenant's cleanup by its id: undefined when there is none (or it is another tenant's). */
    async status(tenantId: string, cleanupId: string): Promise<CleanupState | undefined> {
      const handle = handleOf(tenantId, cleanupId);
      try {
        const { status } = await handle.describe();
        if (status.name === 'RUNNING') return { state: 'running', cleanupId };
      } catch (error) {
        if (error instanceof WorkflowNotFoundError) return undefined;
        throw error;
      }
      const result = await resultWithin(handle, cleanupId, waitMs);
      if (!result) return { state: 'running', cleanupId };
      return { state: 'completed', cleanupId, outcome: await outcomeOf(tenantId, cleanupId, result) };
    },
  });
}

export type CleanupClient = ReturnType<typeof createCleanupClient>;
