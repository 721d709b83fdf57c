import type { EmailStatus } from '../lifecycle/email';

/**
 * The contract between the buyer's e-mail workflow and its activity: ids and statuses only. Addresses, the message,
 * its attachments and the SMTP password stay in PostgreSQL.
 */

/** The e-mail of an accepted document: one workflow per document, started once. */
export const buyerEmailWorkflowId = (externalId: string) => `email-cpe-${externalId}`;
/** The e-mail workflow's type, by which its client starts it (importing the workflow itself as a type only). */
export const BUYER_EMAIL_WORKFLOW = 'buyerEmailWorkflow';

export interface BuyerEmailInput {
  externalId: string;
}

export interface BuyerEmailActivities {
  /**
   * One attempt: reads the document, the company's settings and the addresses, sends, records the outcome. `final`:
   * the last attempt, so a failure ends `failed`. Safe to run twice: a sent e-mail is not sent again.
   */
  attemptBuyerEmail(externalId: string, options: { final: boolean }): Promise<{ status: EmailStatus }>;
}
