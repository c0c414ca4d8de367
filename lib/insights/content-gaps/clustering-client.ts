import type { Client } from '@temporalio/client';
import { tagUnavailable } from '#platform/dependency-errors.js';
import { contentGapsWorkflowId } from '#workflows/ids.js';
import type { ContentGapsWorkflow } from '#workflows/insights/types.js';
import { gapsChangedSignal } from '#workflows/insights/messages.js';
import type { GapOwner } from './types.js';

/**
 * Signals an operator's clustering workflow (`contentGapsWorkflow`), starting it when it is not
 * running: after a gap was recorded, or a cluster marked or unmarked.
 */
export function createGapsClusteringClient(temporal: Pick<Client, 'workflow'>, taskQueue: string, settleSeconds: number) {
  return tagUnavailable('temporal', {
    async changed(owner: GapOwner): Promise<void> {
      await temporal.workflow.signalWithStart<ContentGapsWorkflow, []>('contentGapsWorkflow', {
        workflowId: contentGapsWorkflowId(owner.tenantId, owner.operatorId),
        taskQueue,
        args: [{ ...owner, settleSeconds }],
        signal: gapsChangedSignal,
        signalArgs: [],
      });
    },
  });
}

export type GapsClusteringClient = ReturnType<typeof createGapsClusteringClient>;
