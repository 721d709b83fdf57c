import type { Db } from '../db/knex';
import { listDocumentAttempts, type ListedDocument } from '../db/documents';
import { listAttempts, listDeliveries } from '../db/webhooks';
import { listSupportActions } from '../db/support-actions';

export interface TimelineEntry {
  at: Date;
  event: string;
  detail: string;
}

/**
 * A document's story as support staff read it (`chasqui support find`, the console): issue, each authority step,
 * the verdict, webhook deliveries with their attempts, the buyer's e-mail, and support actions, by time.
 */
export async function documentTimeline(db: Db, doc: ListedDocument): Promise<TimelineEntry[]> {
  const [attempts, deliveries, actions] = await Promise.all([
    listDocumentAttempts(db, doc.id),
    listDeliveries(db, doc.company_id, { documentId: doc.id, limit: 50 }),
    listSupportActions(db, doc.id),
  ]);
  const entries: TimelineEntry[] = [{ at: doc.created_at, event: 'issued', detail: `signed, hash ${doc.hash}` }];
  const stepNames = { send: 'send attempt', ticket: 'ticket poll', query: 'state query' } as const;
  for (const a of attempts) {
    const classification = a.origin ?? (a.status === 'registered' ? 'ticket' : 'answered');
    entries.push({
      at: a.created_at,
      event: stepNames[a.step],
      detail: `${classification}${a.code ? ` ${a.code}` : ''} → ${a.status}${a.message ? `: ${a.message}` : ''}`,
    });
  }
  if (doc.resolved_at)
    entries.push({
      at: doc.resolved_at,
      event: 'verdict',
      detail: `${doc.status}${doc.result?.code ? ` (code ${doc.result.code})` : ''}`,
    });
  for (const d of deliveries) {
    entries.push({
      at: d.created_at,
      event: d.redelivery_of ? 'webhook redelivery' : 'webhook delivery',
      detail: `${d.id} ${d.status}, ${d.attempts} attempt(s)`,
    });
    for (const a of await listAttempts(db, d.id)) {
      entries.push({
        at: a.started_at,
        event: `  webhook attempt ${a.number}`,
        detail: a.delivered
          ? `delivered (HTTP ${a.http_status}, ${a.latency_ms} ms)`
          : `failed: ${a.error ?? `HTTP ${a.http_status}`}`,
      });
    }
  }
  // The buyer's e-mail keeps its latest state only (docs/buyers.md): shown where it ended, or as pending.
  if (doc.email_status) {
    const error = doc.email_error ? `: ${doc.email_error}` : '';
    entries.push({
      at: doc.email_sent_at ?? doc.updated_at,
      event: 'buyer e-mail',
      detail: `${doc.email_status} to ${(doc.email_to ?? []).join(', ')}, ${doc.email_attempts} attempt(s)${error}`,
    });
  }
  for (const s of actions)
    entries.push({
      at: s.created_at,
      event: `support ${s.action}`,
      detail: `by ${s.operator}: ${s.result}${s.detail ? ` — ${s.detail}` : ''}`,
    });
  return entries.sort((a, b) => a.at.getTime() - b.at.getTime());
}
