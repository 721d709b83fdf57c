import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { proxyActivities, sleep, startChild } from '@temporalio/workflow';
import { buyerEmailWorkflowId, type BuyerEmailActivities, type BuyerEmailInput } from './buyer-email-types';
import {
  EMAIL_START,
  isFinalEmailAttempt,
  mayAttemptEmail,
  waitBeforeEmailAttempt,
  type EmailStatus,
} from '../lifecycle/email';

const { attemptBuyerEmail } = proxyActivities<BuyerEmailActivities>({
  // One SMTP conversation has its own timeouts (10 s to connect and greet, 60 s of silence); the rest is the PDF and the DB.
  startToCloseTimeout: '3 minutes',
  // Attempts are counted by this workflow; what Temporal retries here is infrastructure failure (database down, worker lost).
  retry: { initialInterval: '5 seconds', backoffCoefficient: 2, maximumInterval: '5 minutes' },
});

export { buyerEmailWorkflowId };

/**
 * Sends the buyer's e-mail (docs/buyers.md): up to 5 attempts, 4, 8, 16 and 32 minutes apart, each an activity that
 * records its outcome on the document; a permanent refusal (SMTP 5xx) or a company that sends no e-mail ends it at
 * once. The document's own status never depends on it. Carries the document's id only.
 */
export async function buyerEmailWorkflow(input: BuyerEmailInput): Promise<EmailStatus> {
  let status = EMAIL_START;
  for (let number = 1; mayAttemptEmail(status, number); number++) {
    const wait = waitBeforeEmailAttempt(number);
    if (wait !== null) await sleep(wait);
    ({ status } = await attemptBuyerEmail(input.externalId, { final: isFinalEmailAttempt(number) }));
  }
  return status;
}

/**
 * For workflows that resolve documents (the document workflow, a company's daily summary): starts the accepted
 * document's e-mail as a child that outlives its parent. Its id makes it start once; a second call is harmless.
 */
export async function startBuyerEmail(externalId: string): Promise<void> {
  try {
    await startChild(buyerEmailWorkflow, {
      workflowId: buyerEmailWorkflowId(externalId),
      args: [{ externalId }],
      parentClosePolicy: 'ABANDON',
      // An acceptance is e-mailed once; sending again is asked for (POST /v1/cpe/{id}/email) under another id.
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      staticSummary: `buyer e-mail of ${externalId}`,
    });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
}
