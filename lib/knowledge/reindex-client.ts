import { WorkflowNotFoundError, type Client, type WorkflowExecutionDescription } from '@temporalio/client';
import { tagUnavailable } from '#platform/dependency-errors.js';
import { reindexWorkflowId } from '#workflows/ids.js';
import type { ReindexKnowledgeBaseWorkflow, ReindexProgress } from '#workflows/ingestion/types.js';
import { knowledgeBaseIdKey, tenantIdKey } from '#workflows/search-attributes.js';

/**
 * A knowledge base's re-index as the API shows it: its workflow and its progress. `stopped` is a
 * re-index that ended without completing (terminated, cancelled or failed): start it again.
 */
export type ReindexStatus = Omit<ReindexProgress, 'state'> & {
  workflowId: string;
  state: ReindexProgress['state'] | 'stopped';
};

/**
 * Starts knowledge bases' re-indexes and reads their progress. The progress comes from the
 * workflow's memo, which Temporal keeps with the workflow: reading it needs no worker, and it stays
 * readable after the re-index has completed (for the namespace's retention period). A Temporal that
 * cannot be reached fails a call with a DependencyUnavailableError.
 */
export function createReindexClient(temporal: Client, taskQueue: string) {
  async function statusOf(workflowId: string): Promise<ReindexStatus | undefined> {
    let description: WorkflowExecutionDescription;
    try {
      description = await temporal.workflow.getHandle(workflowId).describe();
    } catch (error) {
      if (error instanceof WorkflowNotFoundError) return undefined;
      throw error;
    }
    // Set at the start and kept current by the workflow.
    const progress = description.memo?.progress as ReindexProgress;
    const ended = description.status.name !== 'RUNNING' && description.status.name !== 'COMPLETED';
    return { workflowId, ...progress, state: ended ? 'stopped' : progress.state };
  }

  return tagUnavailable('temporal', {
    /** Starts the knowledge base's re-index, or finds the one running; resolves with its status. */
    async start(tenantId: string, knowledgeBaseId: string): Promise<ReindexStatus> {
      const workflowId = reindexWorkflowId(tenantId, knowledgeBaseId);
      const progress: ReindexProgress = {
        state: 'running',
        total: null,
        sent: 0,
        remaining: null,
        startedAt: new Date().toISOString(),
        completedAt: null,
      };
      await temporal.workflow.start<ReindexKnowledgeBaseWorkflow>('reindexKnowledgeBaseWorkflow', {
        workflowId,
        taskQueue,
        args: [{ tenantId, knowledgeBaseId }],
        // A re-index already running is the answer; one that has ended is started anew.
        workflowIdConflictPolicy: 'USE_EXISTING',
        memo: { progress },
        typedSearchAttributes: [
          { key: tenantIdKey, value: tenantId },
          { key: knowledgeBaseIdKey, value: knowledgeBaseId },
        ],
      });
      return (await statusOf(workflowId)) ?? { workflowId, ...progress };
    },

    /** The status of the knowledge base's latest re-index; undefined when none was ever started (or its record has expired). */
    status: (tenantId: string, knowledgeBaseId: string): Promise<ReindexStatus | undefined> =>
      statusOf(reindexWorkflowId(tenantId, knowledgeBaseId)),
  });
}

export type ReindexClient = ReturnType<typeof createReindexClient>;
