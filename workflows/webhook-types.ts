/**
 * The contract between the webhook delivery workflow and its activities: ids, counts and statuses only. The body, the
 * URL's secret and the document never travel through Temporal.
 */

/** Spec 6 and 8: five attempts in total. */
export const WEBHOOK_MAX_ATTEMPTS = 5;

/** Waits after failed attempts 1 to 4: growing from 30 s to 30 min. */
export const WEBHOOK_RETRY_WAITS_MS: readonly number[] = [30_000, 2 * 60_000, 8 * 60_000, 30 * 60_000];

/** A document's resolution (spec 6): `cpe.resolved` in the body, `cpe.resuelto` in X-Evento. */
export const WEBHOOK_EVENT = 'cpe.resolved';
export const WEBHOOK_EVENT_HEADER = 'cpe.resuelto';

/** A company check that changed to warn or fail (docs/webhooks.md, "company.check"). */
export const CHECK_WEBHOOK_EVENT = 'company.check';
export const CHECK_WEBHOOK_EVENT_HEADER = 'empresa.verificacion';

/**
 * - pending: attempts remain;
 * - delivered: a 2xx answer;
 * - failed: every attempt failed;
 * - cancelled: the webhook was disabled before the notice could be delivered.
 */
export type DeliveryStatus = 'pending' | 'delivered' | 'failed' | 'cancelled';

export interface WebhookDeliveryInput {
  /** The document whose resolution is notified; absent for a company check's notice (its row exists: `deliveryId`). */
  externalId?: string;
  /**
   * Set when the delivery's row exists already: a redelivery (the API created it), or an original delivery whose first
   * attempt the document workflow made (attempts already recorded are returned as they were, never sent again).
   * Otherwise the original delivery opens its own row.
   */
  deliveryId?: string;
}

export interface OpenedDelivery {
  deliveryId: string;
  status: DeliveryStatus;
  /** Attempts already made (a restarted workflow resumes after them). */
  attempts: number;
  /**
   * Attempt 1, when the opening was asked to make it (`attemptFirst`) and the delivery was new: opening and first
   * attempt are then one local activity. Absent in openings recorded by older workers.
   */
  first?: AttemptOutcome;
}

export interface AttemptOutcome {
  status: DeliveryStatus;
  attempts: number;
  httpStatus: number | null;
  error: string | null;
}

/** Implemented by activities/webhooks.ts. */
export interface WebhookActivities {
  /** The document's original delivery, created on first call; null when the company has no webhook configured. */
  openWebhookDelivery(externalId: string, options?: { attemptFirst?: boolean }): Promise<OpenedDelivery | null>;
  /** Makes attempt `number` with the company's current URL and secret and records it (once, even if run twice). */
  attemptWebhookDelivery(deliveryId: string, number: number): Promise<AttemptOutcome>;
}
