import type { Client } from '@temporalio/client';
import { ingestWorkflowId, type ItemIdentity } from '#workflows/ids.js';
import { itemOperationSignal } from '#workflows/ingestion/messages.js';
import { ingestTaskQueue } from '#workflows/ingestion/task-queues.js';
import type { ItemOperation, Priority } from '#workflows/ingestion/types.js';
import { integrationIdKey, knowledgeBaseIdKey, sourceTypeKey, tenantIdKey } from '#workflows/search-attributes.js';
import type { ingestItemWorkflow } from '#workflows/index.js';

/**
 * Hands an operation to the item's workflow: signals it while it runs, otherwise starts it with the
 * signal (one call, so no operation can fall between a finished run and a new one). Resolves once
 * Temporal has durably recorded it; no worker needs to be running.
 */
export async function sendItemOperation(
  client: Client,
  options: { taskQueueBase: string; identity: ItemIdentity; operation: ItemOperation; priority: Priority; sourceType: string },
): Promise<void> {
  const { identity, operation } = options;
  await client.workflow.signalWithStart<typeof ingestItemWorkflow, [ItemOperation]>('ingestItemWorkflow', {
    workflowId: ingestWorkflowId(identity),
    taskQueue: ingestTaskQueue(options.taskQueueBase, options.priority),
    args: [identity],
    signal: itemOperationSignal,
    signalArgs: [operation],
    typedSearchAttributes: [
      { key: tenantIdKey, value: identity.tenantId },
      { key: knowledgeBaseIdKey, value: operation.knowledgeBaseId },
      { key: integrationIdKey, value: identity.integrationId },
      { key: sourceTypeKey, value: options.sourceType },
    ],
  });
}
