/**
 * What a webhook delivery of a notice (`cpe.resolved`, `company.check`) may become: its statuses and every change as a
 * pure table. activities/webhooks.ts carries each decision out (db/webhooks.ts records it) and
 * workflows/webhook-delivery.ts follows it; nothing else decides a delivery's status (docs/architecture.md, "Webhook
 * delivery"). Pure and deterministic: the delivery workflow imports it.
 */

/**
 * A webhook delivery of a notice (spec 6):
 * - pending: attempts remain;
 * - delivered: a 2xx answer;
 * - failed: every attempt failed;
 * - cancelled: the webhook was disabled before the notice could be delivered.
 */
export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed', 'cancelled'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** Spec 6 and 8: five attempts in total. */
export const WEBHOOK_MAX_ATTEMPTS = 5;

/** Waits after failed attempts 1 to 4: growing from 30 s to 30 min. */
export const WEBHOOK_RETRY_WAITS_MS: readonly number[] = [30_000, 2 * 60_000, 8 * 60_000, 30 * 60_000];

/** Every delivery opens here: a resolution's, a check change's, or a redelivery (a new delivery of its own). */
export const OPENED_DELIVERY: DeliveryStatus = 'pending';

/**
 * What happens to a pending delivery before or at an attempt:
 * - answered: the receiver answered 2xx;
 * - refused: anything else (another status, a refused target, no answer) with attempts left;
 * - exhausted: the same at the last attempt;
 * - disabled: the company's webhook URL or secret was gone when the attempt was due.
 */
export type DeliveryEvent = 'answered' | 'refused' | 'exhausted' | 'disabled';

export const DELIVERY_TRANSITIONS: Record<DeliveryEvent, DeliveryStatus> = {
  answered: 'delivered',
  refused: 'pending',
  exhausted: 'failed',
  disabled: 'cancelled',
};

/** Spec 6: a receiver's answer delivers the notice when its HTTP status is 2xx; anything else (redirects too) does not. */
export function deliversNotice(httpStatus: number): boolean {
  return httpStatus >= 200 && httpStatus < 300;
}

/** A delivery that may still be attempted; every other status is final. */
export function isPendingDelivery(status: DeliveryStatus): boolean {
  return status === OPENED_DELIVERY;
}

/** The final statuses: a settled delivery's history may be pruned after CHASQUI_WEBHOOK_HISTORY_DAYS (docs/webhooks.md). */
export const SETTLED_DELIVERY_STATUSES: readonly DeliveryStatus[] = DELIVERY_STATUSES.filter(
  (s) => !isPendingDelivery(s),
);

/**
 * Whether a document resolved at `resolvedAt` may have had its webhook history pruned by `now`: it resolved more than
 * `historyDays` days ago (null: history is kept for good). Its deliveries ended after it resolved.
 */
export function historyMayBePruned(resolvedAt: Date | null, historyDays: number | null, now: number): boolean {
  return historyDays !== null && resolvedAt !== null && new Date(resolvedAt).getTime() < now - historyDays * 86_400_000;
}

/** The event attempt `number` (1-based) was, by whether the receiver answered 2xx. */
export function attemptEvent(number: number, delivered: boolean): DeliveryEvent {
  return delivered ? 'answered' : number >= WEBHOOK_MAX_ATTEMPTS ? 'exhausted' : 'refused';
}

/** What attempt `number` makes of a pending delivery, and when the next is due (null: none). */
export function afterAttempt(
  number: number,
  delivered: boolean,
  now: number,
): { status: DeliveryStatus; nextAttemptAt: Date | null } {
  const status = DELIVERY_TRANSITIONS[attemptEvent(number, delivered)];
  return {
    status,
    nextAttemptAt: isPendingDelivery(status) ? new Date(now + WEBHOOK_RETRY_WAITS_MS[number - 1]) : null,
  };
}

/** How long the delivery workflow waits before attempt `number` (none before the first). */
export function waitBeforeAttempt(number: number): number | null {
  return number > 1 ? WEBHOOK_RETRY_WAITS_MS[number - 2] : null;
}

/** Whether attempt `number` is still to be made of a delivery now in `status`. */
export function mayAttempt(status: DeliveryStatus, number: number): boolean {
  return isPendingDelivery(status) && number <= WEBHOOK_MAX_ATTEMPTS;
}

/** An opened delivery whose first attempt is still to be made (none recorded: a rerun finds it made). */
export function awaitsFirstAttempt(delivery: { status: DeliveryStatus; attempts: number }): boolean {
  return isPendingDelivery(delivery.status) && delivery.attempts === 0;
}
