import type { EmailStatus } from '../lifecycle/email';

/**
 * The contract between the buyer's e-mail workflow and its activity: ids and statuses only. Addresses, the message,
 * its attachments and the SMTP password stay in PostgreSQL.
 */

/** Issue 27: five attempts over about an hour. */
export const EMAIL_MAX_ATTEMPTS = 5;

/** Waits after failed attempts 1 to 4: 4, 8, 16 and 32 minutes (an hour in all). */
export const EMAIL_RETRY_WAITS_MS: readonly number[] = [4 * 60_000, 8 * 60_000, 16 * 60_000, 32 * 60_000];

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
