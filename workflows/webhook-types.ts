import type { DeliveryStatus } from '../lifecycle/webhooks';
/**
 * The contract between the webhook delivery workflow and its activities: ids, counts and statuses only. The body, the
 * URL's secret and the document never travel through Temporal.
 */

/** The delivery's attempts and waits (lifecycle/webhooks.ts), part of this contract. */
export { WEBHOOK_MAX_ATTEMPTS, WEBHOOK_RETRY_WAITS_MS } from '../lifecycle/webhooks';

/** The original delivery of a document's resolution: one workflow per document, started once. */
export const webhookWorkflowId = (externalId: string) => `webhook-cpe-${externalId}`;
/** The notice of a company check's change: one workflow per change. */
export const checkWebhookWorkflowId = (eventId: string) => `webhook-check-${eventId}`;
/** A redelivery the account asked for: one workflow per new delivery. */
export const redeliveryWorkflowId = (deliveryId: string) => `webhook-delivery-${deliveryId}`;
/** The delivery workflow's type, by which its clients start it (importing the workflow itself as a type only). */
export const WEBHOOK_DELIVERY_WORKFLOW = 'webhookDeliveryWorkflow';

/** A document's resolution (spec 6): `cpe.resolved` in the body, `cpe.resuelto` in X-Evento. */
export const WEBHOOK_EVENT = 'cpe.resolved';
export const WEBHOOK_EVENT_HEADER = 'cpe.resuelto';

/** A company check that changed to warn or fail (docs/webhooks.md, "company.check"). */
export const CHECK_WEBHOOK_EVENT = 'company.check';
export const CHECK_WEBHOOK_EVENT_HEADER = 'empresa.verificacion';

/** A test notice the account sends from the panel or the API: no document, its own event (docs/webhooks.md). */
export const TEST_WEBHOOK_EVENT = 'webhook.test';
export const TEST_WEBHOOK_EVENT_HEADER = 'webhook.prueba';

/** A delivery's status (lifecycle/webhooks.ts), part of this contract. */
export type { DeliveryStatus };

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
