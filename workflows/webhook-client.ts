import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import { redeliveryWorkflowId, webhookDeliveryWorkflow, webhookWorkflowId } from './webhook-delivery';

/**
 * Client-side starts of the webhook delivery workflow (the sweeper and the API; never imported by workflow code).
 * The original delivery of a document starts once ever, whoever starts it first (the document workflow's child or
 * the sweeper); a second start is harmless.
 */
export async function startWebhookDeliveryWorkflow(client: Client, taskQueue: string, externalId: string): Promise<void> {
  try {
    await client.workflow.start(webhookDeliveryWorkflow, {
      taskQueue,
      workflowId: webhookWorkflowId(externalId),
      args: [{ externalId }],
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      staticSummary: `cpe.resolved notice of ${externalId}`,
    });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
}

/** A redelivery the account asked for; its row exists already (api/webhooks). */
export async function startRedeliveryWorkflow(client: Client, taskQueue: string, externalId: string, deliveryId: string): Promise<void> {
  await client.workflow.start(webhookDeliveryWorkflow, {
    taskQueue,
    workflowId: redeliveryWorkflowId(deliveryId),
    args: [{ externalId, deliveryId }],
    staticSummary: `cpe.resolved redelivery of ${externalId}`,
  });
}
