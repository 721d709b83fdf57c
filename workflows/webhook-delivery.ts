import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { proxyActivities, proxyLocalActivities, sleep, startChild } from '@temporalio/workflow';
import { isPendingDelivery, mayAttempt, OPENED_DELIVERY, waitBeforeAttempt } from '../lifecycle/webhooks';
import {
  checkWebhookWorkflowId,
  redeliveryWorkflowId,
  webhookWorkflowId,
  type DeliveryStatus,
  type OpenedDelivery,
  type WebhookActivities,
  type WebhookDeliveryInput,
} from './webhook-types';

const WEBHOOK_ACTIVITY_OPTIONS = {
  // One POST has its own 10 s budget (CHASQUI_WEBHOOK_TIMEOUT_MS); the rest is DNS and the database.
  startToCloseTimeout: '1 minute',
  // Attempts are counted by this workflow; what Temporal retries here is infrastructure failure (database down, worker lost).
  retry: { initialInterval: '5 seconds', backoffCoefficient: 2, maximumInterval: '5 minutes' },
} as const;
const { openWebhookDelivery, attemptWebhookDelivery } = proxyActivities<WebhookActivities>(WEBHOOK_ACTIVITY_OPTIONS);
const local = proxyLocalActivities<WebhookActivities>(WEBHOOK_ACTIVITY_OPTIONS);

export { checkWebhookWorkflowId, redeliveryWorkflowId, webhookWorkflowId };

/**
 * Delivers one notice (`cpe.resolved`, or `company.check` whose delivery row the checks opened): up to 5 attempts, each an activity that reads the company's current URL and
 * secret, builds and signs the body, POSTs it and records the attempt; a durable sleep (30 s, 2, 8, 30 min) between
 * failed attempts, so every attempt and wait is visible in the history. Carries ids only.
 * Returns how the delivery ended; `not_configured` when the company had no webhook when the document resolved.
 */
export async function webhookDeliveryWorkflow(input: WebhookDeliveryInput): Promise<DeliveryStatus | 'not_configured'> {
  const opened = input.deliveryId
    ? { deliveryId: input.deliveryId, status: OPENED_DELIVERY, attempts: 0 }
    : input.externalId
      ? await openWebhookDelivery(input.externalId)
      : null;
  if (!opened) return 'not_configured';
  let status: DeliveryStatus = opened.status;
  for (let number = opened.attempts + 1; mayAttempt(status, number); number++) {
    const wait = waitBeforeAttempt(number);
    if (wait !== null) await sleep(wait);
    ({ status } = await attemptWebhookDelivery(opened.deliveryId, number));
  }
  return status;
}

/**
 * The document workflow's own delivery of its resolution: opening the delivery and its first attempt run as one local
 * activity in the workflow task that resolved the document, so a receiver answering 2xx costs no workflow of its
 * own. A failed first attempt hands the rest (waits of 30 s to 30 min, attempts 2 to 5) to the delivery workflow,
 * which finds attempt 1 recorded and carries on after it.
 */
export async function deliverResolution(externalId: string): Promise<void> {
  await followNotice(externalId, await local.openWebhookDelivery(externalId, { attemptFirst: true }));
}

/** After the opening (attempt 1 made, or not by older workers): what remains of the delivery goes to its own workflow. */
export async function followNotice(externalId: string, opened: OpenedDelivery | null): Promise<void> {
  if (!opened || !isPendingDelivery(opened.status)) return;
  // Openings recorded by older workers made no attempt: theirs is a local activity of its own (replayed as recorded).
  const { status } = opened.first ?? (await local.attemptWebhookDelivery(opened.deliveryId, opened.attempts + 1));
  if (isPendingDelivery(status)) await startWebhookDelivery(externalId, opened.deliveryId);
}

/**
 * For workflows that resolve documents (the document workflow, the daily summary): starts the document's webhook
 * delivery as a child that outlives its parent. Its id makes it start once; a second call is harmless.
 * `deliveryId`: the delivery was already opened (and its first attempts made) by the caller.
 */
export async function startWebhookDelivery(externalId: string, deliveryId?: string): Promise<void> {
  try {
    await startChild(webhookDeliveryWorkflow, {
      workflowId: webhookWorkflowId(externalId),
      args: [deliveryId ? { externalId, deliveryId } : { externalId }],
      parentClosePolicy: 'ABANDON',
      // Not even after it has completed: a resolution is notified once; the account asks for redeliveries.
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      staticSummary: `cpe.resolved notice of ${externalId}`,
    });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
}
