import type { Db } from '../db/knex';
import type { ListedDocument } from '../db/documents';
import { listDocumentAttempts } from '../db/document-lists';
import { listAttempts, listDeliveries } from '../db/webhooks';
import { listSupportActions } from '../db/support-actions';
import { isMessage, message, type Message } from '../lifecycle/messages';
import { recordedKind } from '../lifecycle/transitions';
import { historyMayBePruned } from '../lifecycle/webhooks';

/** One moment of a document's story: what happened and its detail, as messages each surface renders. */
export interface TimelineEntry {
  at: Date;
  event: Message;
  detail: Message;
}

/**
 * A document's story as support staff read it (`chasqui support find` in English, the console in Spanish): issue,
 * each authority step, the verdict, webhook deliveries with their attempts, the buyer's e-mail, and support actions,
 * by time. `historyDays` (CHASQUI_WEBHOOK_HISTORY_DAYS, null: kept for good): an old document without deliveries says
 * its history is not kept, since it may have been pruned (docs/webhooks.md, "History").
 */
export async function documentTimeline(
  db: Db,
  doc: ListedDocument,
  historyDays: number | null,
): Promise<TimelineEntry[]> {
  const [attempts, deliveries, actions] = await Promise.all([
    listDocumentAttempts(db, doc.id),
    listDeliveries(db, doc.company_id, { documentId: doc.id, limit: 50 }),
    listSupportActions(db, doc.id),
  ]);
  const entries: TimelineEntry[] = [
    { at: doc.created_at, event: message('event.issued'), detail: message('detail.issued', { hash: doc.hash }) },
  ];
  const stepEvents = { send: 'event.send', ticket: 'event.ticket', query: 'event.query' } as const;
  for (const a of attempts) {
    // An attempt recorded before origins were: a ticket's status says where it came from.
    const origin = a.origin ?? (recordedKind(a.status) === 'ticket' ? 'ticket' : 'answered');
    entries.push({
      at: a.created_at,
      event: message(stepEvents[a.step]),
      detail: message('detail.attempt', {
        origin,
        code: a.code,
        status: a.status,
        message: a.message,
        // The authority's own answer (its text is SUNAT's), not one of chasqui's transport errors.
        own: a.origin === null || a.origin === 'tax_authority',
        destination: doc.destination,
      }),
    });
  }
  if (doc.resolved_at)
    entries.push({
      at: doc.resolved_at,
      event: message('event.verdict'),
      detail: message('detail.verdict', { status: doc.status, code: doc.result?.code ?? null }),
    });
  if (!deliveries.length && historyMayBePruned(doc.resolved_at, historyDays, Date.now()))
    entries.push({
      at: doc.resolved_at!,
      event: message('event.delivery'),
      detail: message('detail.delivery_pruned', { days: historyDays! }),
    });
  for (const d of deliveries) {
    entries.push({
      at: d.created_at,
      event: message(d.redelivery_of ? 'event.redelivery' : 'event.delivery'),
      detail: message('detail.delivery', { delivery: d.id, status: d.status, attempts: d.attempts }),
    });
    for (const a of await listAttempts(db, d.id)) {
      entries.push({
        at: a.started_at,
        event: message('event.delivery_attempt', { number: a.number }),
        detail: a.delivered
          ? message('detail.delivery_done', { http: a.http_status, ms: a.latency_ms })
          : message('detail.delivery_failed', { error: a.error, http: a.http_status }),
      });
    }
  }
  // The buyer's e-mail keeps its latest state only (docs/buyers.md): shown where it ended, or as pending.
  if (doc.email_status) {
    entries.push({
      at: doc.email_sent_at ?? doc.updated_at,
      event: message('event.email'),
      detail: message('detail.email', {
        status: doc.email_status,
        to: doc.email_to ?? [],
        attempts: doc.email_attempts,
        error: doc.email_error,
      }),
    });
  }
  for (const s of actions)
    entries.push({
      at: s.created_at,
      event: message('event.support', { action: s.action }),
      detail: message('detail.support', {
        operator: s.operator,
        result: s.result,
        detail: s.detail,
        message: isMessage(s.message) ? s.message : null,
      }),
    });
  return entries.sort((a, b) => a.at.getTime() - b.at.getTime());
}
