import { WorkflowExecutionAlreadyStartedError, WorkflowIdReusePolicy, type Client } from '@temporalio/client';
import { tagUnavailable } from '#platform/dependency-errors.js';
import { shopProductWorkflowId } from '#workflows/ids.js';
import type { ShopConnector } from './records.js';

/**
 * Hands a shop's product webhook to a `shopProductWorkflow`, durably, before the webhook is answered.
 * The workflow id carries the delivery's id, so a redelivery (shops retry until they get a 2xx) is
 * recognised and starts nothing: `duplicate`. A Temporal that cannot be reached fails it with a
 * DependencyUnavailableError.
 */
export function createProductWebhooks(temporal: Client, taskQueue: string) {
  return tagUnavailable('temporal', {
    async productChanged(connector: ShopConnector, productId: string, deliveryId: string): Promise<'started' | 'duplicate'> {
      try {
        await temporal.workflow.start('shopProductWorkflow', {
          workflowId: shopProductWorkflowId(connector.tenantId, connector.id, productId, deliveryId),
          taskQueue,
          args: [{ connectorId: connector.id, productId }],
          workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
        });
        return 'started';
      } catch (error) {
        if (error instanceof WorkflowExecutionAlreadyStartedError) return 'duplicate';
        throw error;
      }
    },
  });
}

export type ProductWebhooks = ReturnType<typeof createProductWebhooks>;
