import type { Client } from '@temporalio/client';
import type { Priority } from '@temporalio/common';
import type { buyerEmailWorkflow } from './buyer-email';
import { BUYER_EMAIL_WORKFLOW, buyerEmailWorkflowId } from './buyer-email-types';

/**
 * Starts the buyer's e-mail once more for a document (POST /v1/cpe/{id}/email, the console): a run of its own beside
 * any earlier one, so its id carries a random suffix.
 */
export async function startBuyerEmailAgain(
  client: Client,
  options: { taskQueue: string; externalId: string; runSuffix: string; summary: string; priority?: Priority },
): Promise<void> {
  await client.workflow.start<typeof buyerEmailWorkflow>(BUYER_EMAIL_WORKFLOW, {
    taskQueue: options.taskQueue,
    priority: options.priority,
    workflowId: `${buyerEmailWorkflowId(options.externalId)}-${options.runSuffix}`,
    args: [{ externalId: options.externalId }],
    staticSummary: options.summary,
  });
}
