import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import type { Priority } from '@temporalio/common';
import type { webhookDeliveryWorkflow } from './webhook-delivery';
import {
  checkWebhookWorkflowId,
  redeliveryWorkflowId,
  WEBHOOK_DELIVERY_WORKFLOW,
  webhookWorkflowId,
} from './webhook-types';

/**
 * Client-side starts of the webhook delivery workflow (the sweeper and the API; never imported by workflow code).
 * The original delivery of a document starts once ever, whoever starts it first (the document workflow's child or
 * the sweeper); a second start is harmless.
 */
export async function startWebhookDeliveryWorkflow(
  client: Client,
  taskQueue: string,
  externalId: string,
  priority?: Priority,
): Promise<void> {
  try {
    await client.workflow.start<typeof webhookDeliveryWorkflow>(WEBHOOK_DELIVERY_WORKFLOW, {
      taskQueue,
      priority,
      workflowId: webhookWorkflowId(externalId),
      args: [{ externalId }],
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      staticSummary: `cpe.resolved notice of ${externalId}`,
    });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
}

/** The delivery of a company check's change (its row opened by the checks); started once per change. */
export async function startCheckDeliveryWorkflow(
  client: Client,
  taskQueue: string,
  eventId: string,
  deliveryId: string,
  priority?: Priority,
): Promise<void> {
  try {
    await client.workflow.start<typeof webhookDeliveryWorkflow>(WEBHOOK_DELIVERY_WORKFLOW, {
      taskQueue,
      priority,
      workflowId: checkWebhookWorkflowId(eventId),
      args: [{ deliveryId }],
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      staticSummary: `company.check notice ${eventId}`,
    });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
}

/**
 * A redelivery the account asked for, or its test notice; its row exists already (api/webhooks, api/companies/webhook.ts).
 * `externalId` null: a check's notice or a test notice.
 */
export async function startRedeliveryWorkflow(
  client: Client,
  taskQueue: string,
  externalId: string | null,
  deliveryId: string,
  priority?: Priority,
): Promise<void> {
  await client.workflow.start<typeof webhookDeliveryWorkflow>(WEBHOOK_DELIVERY_WORKFLOW, {
    taskQueue,
    priority,
    workflowId: redeliveryWorkflowId(deliveryId),
    args: [externalId ? { externalId, deliveryId } : { deliveryId }],
    staticSummary: externalId ? `cpe.resolved redelivery of ${externalId}` : `notice delivery ${deliveryId}`,
  });
}
