import type { Client } from '@temporalio/client';
import { buyerEmailWorkflow, buyerEmailWorkflowId } from './buyer-email';

/**
 * Starts the buyer's e-mail once more for a document (POST /v1/cpe/{id}/email, the console): a run of its own beside
 * any earlier one, so its id carries a random suffix.
 */
export async function startBuyerEmailAgain(
  client: Client,
  options: { taskQueue: string; externalId: string; runSuffix: string; summary: string },
): Promise<void> {
  await client.workflow.start(buyerEmailWorkflow, {
    taskQueue: options.taskQueue,
    workflowId: `${buyerEmailWorkflowId(options.externalId)}-${options.runSuffix}`,
    args: [{ externalId: options.externalId }],
    staticSummary: options.summary,
  });
}
