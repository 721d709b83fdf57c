import type { DeliveryRow } from '../../db/webhooks';
import { WEBHOOK_MAX_ATTEMPTS } from '../../workflows/webhook-types';

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

/** A delivery as the account sees it; `id` is the X-Entrega its receiver got. */
export function presentDelivery(row: DeliveryRow) {
  return {
    id: row.id,
    external_id: row.document_id,
    check_event_id: row.check_event_id,
    event: row.event,
    status: row.status,
    attempts_made: row.attempts,
    max_attempts: WEBHOOK_MAX_ATTEMPTS,
    next_attempt_at: iso(row.next_attempt_at),
    last_error: row.last_error,
    redelivery_of: row.redelivery_of,
    created_at: iso(row.created_at)!,
    completed_at: iso(row.completed_at),
  };
}
