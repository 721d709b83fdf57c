import type { EmailStatus } from '../lifecycle/email';

/**
 * The contract between the buyer's e-mail workflow and its activity: ids and statuses only. Addresses, the message,
 * its attachments and the SMTP password stay in PostgreSQL.
 */

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
