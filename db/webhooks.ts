import { run, statement, type Db } from './knex';
import { companyFromJson, type CompanyRow } from './companies';
import type { ListedDocument } from './documents';
import { listedColumns } from './document-lists';
import { DELIVERY_TRANSITIONS, OPENED_DELIVERY, type DeliveryStatus } from '../lifecycle/webhooks';
import { isUuid } from '../core/ids';

/** A webhook_deliveries row; its id is the X-Entrega header of every attempt. */
export interface DeliveryRow {
  id: string;
  company_id: string;
  /** The document of a `cpe.resolved` notice; null for a `company.check` notice (then `check_event_id`). */
  document_id: string | null;
  check_event_id: string | null;
  event: string;
  redelivery_of: string | null;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: Date | null;
  last_error: string | null;
  created_at: Date;
  updated_at: Date;
  completed_at: Date | null;
}

export interface AttemptRow {
  id: string;
  delivery_id: string;
  number: number;
  url: string;
  started_at: Date;
  http_status: number | null;
  latency_ms: number | null;
  error: string | null;
  delivered: boolean;
}

export type NewAttempt = Omit<AttemptRow, 'id' | 'delivery_id'>;

/** Every column of webhook_deliveries, as the prepared statements below read them. */
export const DELIVERY_COLUMNS = [
  'id',
  'company_id',
  'document_id',
  'check_event_id',
  'event',
  'redelivery_of',
  'status',
  'attempts',
  'next_attempt_at',
  'last_error',
  'created_at',
  'updated_at',
  'completed_at',
] as const;
const DELIVERY_LIST = DELIVERY_COLUMNS.join(', ');

// The existing row is read by the same statement: the insert's own row is not visible to it, so one of the two
// answers. A row another transaction was inserting at that moment is visible to neither: then it is read again.
const OPEN_DELIVERY = statement(
  'open_delivery',
  `with inserted as (insert into webhook_deliveries (company_id, document_id, event) values ($1, $2, $3)
                     on conflict (document_id, event) where redelivery_of is null do nothing
                     returning ${DELIVERY_LIST})
   select ${DELIVERY_LIST} from inserted
   union all
   select ${DELIVERY_LIST} from webhook_deliveries where document_id = $2 and event = $3 and redelivery_of is null
   limit 1`,
);

/** The document's original delivery of `event`, created on first call (concurrent calls get the same row); one statement. */
export async function openOriginalDelivery(
  db: Db,
  doc: { id: string; company_id: string },
  event: string,
): Promise<DeliveryRow> {
  const [row] = await run<DeliveryRow>(db, OPEN_DELIVERY, [doc.company_id, doc.id, event]);
  return (
    row ??
    ((await db('webhook_deliveries')
      .where({ document_id: doc.id, event })
      .whereNull('redelivery_of')
      .first()) as DeliveryRow)
  );
}

const BEGIN_NOTICE = statement(
  'begin_notice',
  `with notified as (update document_events set webhook_started_at = now() where document_id = $1 and event = $2 and webhook_started_at is null)
   select ${listedColumns('d')}, to_jsonb(c) as company_json
     from documents d left join companies c on c.id = d.company_id
    where d.id = $1`,
);

/**
 * A resolution's notice begins: its event is marked as taken by a workflow (the sweeper leaves it alone), and the
 * document (as listed: no XML, no CDR) is read with its company, in one statement. Null when the document does not exist.
 */
export async function beginResolutionNotice(
  db: Db,
  documentId: string,
  event: string,
): Promise<{ doc: ListedDocument; company: CompanyRow | null } | null> {
  const [row] = await run<ListedDocument & { company_json: Record<string, unknown> | null }>(db, BEGIN_NOTICE, [
    documentId,
    event,
  ]);
  if (!row) return null;
  const { company_json, ...doc } = row;
  return { doc, company: company_json && companyFromJson(company_json) };
}

/** The delivery of a company check's change, created on first call (a rerun gets the same row). */
export async function openCheckDelivery(
  db: Db,
  event: { id: string; company_id: string },
  name: string,
): Promise<DeliveryRow> {
  await db('webhook_deliveries')
    .insert({ company_id: event.company_id, check_event_id: event.id, event: name })
    .onConflict(db.raw('(check_event_id) where redelivery_of is null and check_event_id is not null'))
    .ignore();
  return (await db('webhook_deliveries')
    .where({ check_event_id: event.id })
    .whereNull('redelivery_of')
    .first()) as DeliveryRow;
}

/** A new delivery (new X-Entrega) of the same notice (document or check change) and event. */
export async function insertRedelivery(db: Db, of: DeliveryRow): Promise<DeliveryRow> {
  const [row] = await db('webhook_deliveries')
    .insert({
      company_id: of.company_id,
      document_id: of.document_id,
      check_event_id: of.check_event_id,
      event: of.event,
      redelivery_of: of.id,
    })
    .returning('*');
  return row as DeliveryRow;
}

export async function deleteDelivery(db: Db, id: string): Promise<void> {
  await db('webhook_deliveries').where({ id }).delete();
}

export function findDelivery(db: Db, id: string): Promise<DeliveryRow | undefined> {
  if (!isUuid(id)) return Promise.resolve(undefined);
  return db<DeliveryRow>('webhook_deliveries').where({ id }).first();
}

export interface DeliveryFilter {
  status?: DeliveryStatus;
  documentId?: string;
  limit: number;
  /** Only deliveries created before this one (the previous page's last id). */
  before?: DeliveryRow;
}

/** The company's deliveries, newest first. */
export function listDeliveries(db: Db, companyId: string, filter: DeliveryFilter): Promise<DeliveryRow[]> {
  const query = db<DeliveryRow>('webhook_deliveries').where({ company_id: companyId });
  if (filter.status) query.where({ status: filter.status });
  if (filter.documentId) query.where({ document_id: filter.documentId });
  // Compared in SQL: a JS Date keeps milliseconds only, and rows within the cursor's millisecond would be skipped.
  if (filter.before)
    query.whereRaw('(created_at, id) < (select created_at, id from webhook_deliveries where id = ?)', [
      filter.before.id,
    ]);
  return query
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(filter.limit);
}

export function listAttempts(db: Db, deliveryId: string): Promise<AttemptRow[]> {
  return db<AttemptRow>('webhook_attempts').where({ delivery_id: deliveryId }).orderBy('number');
}

export function findAttempt(db: Db, deliveryId: string, number: number): Promise<AttemptRow | undefined> {
  return db<AttemptRow>('webhook_attempts').where({ delivery_id: deliveryId, number }).first();
}

// The statement's own snapshot does not see its update: the row comes from the update, or unchanged when none ran.
const RECORD_ATTEMPT = statement(
  'record_attempt',
  `with inserted as (insert into webhook_attempts (delivery_id, number, url, started_at, http_status, latency_ms, error, delivered)
                     values ($1, $2, $3, $4, $5, $6, $7, $8)
                     on conflict (delivery_id, number) do nothing
                     returning id),
        moved as (update webhook_deliveries
                     set status = $9, attempts = $2, next_attempt_at = $10, last_error = $7, updated_at = now(),
                         completed_at = case when $9 = 'pending' then null else now() end
                   where id = $1 and exists (select 1 from inserted)
                   returning ${DELIVERY_LIST})
   select ${DELIVERY_LIST} from moved
   union all
   select ${DELIVERY_LIST} from webhook_deliveries where id = $1 and not exists (select 1 from moved)`,
);

/**
 * Records attempt `attempt.number` and moves the delivery on, in one statement (one round trip, one commit). A second
 * record of the same attempt (a retried activity) changes nothing. `nextAttemptAt` is null when no attempt follows.
 */
export async function recordAttempt(
  db: Db,
  deliveryId: string,
  attempt: NewAttempt,
  next: { status: DeliveryStatus; nextAttemptAt: Date | null },
): Promise<DeliveryRow> {
  const [row] = await run<DeliveryRow>(db, RECORD_ATTEMPT, [
    deliveryId,
    attempt.number,
    attempt.url,
    attempt.started_at,
    attempt.http_status,
    attempt.latency_ms,
    attempt.error,
    attempt.delivered,
    next.status,
    next.nextAttemptAt,
  ]);
  return row;
}

/** Ends a pending delivery without another attempt (the webhook was disabled: lifecycle/webhooks.ts `disabled`). */
export async function cancelDelivery(db: Db, deliveryId: string, reason: string): Promise<DeliveryRow> {
  const [row] = await db('webhook_deliveries')
    .where({ id: deliveryId, status: OPENED_DELIVERY })
    .update({
      status: DELIVERY_TRANSITIONS.disabled,
      last_error: reason,
      next_attempt_at: null,
      updated_at: db.fn.now(),
      completed_at: db.fn.now(),
    })
    .returning('*');
  return (row as DeliveryRow | undefined) ?? ((await findDelivery(db, deliveryId)) as DeliveryRow);
}

/** The document's resolution has its delivery workflow (whatever that found to do). */
export async function markResolutionNotified(db: Db, documentId: string, event: string): Promise<void> {
  await db('document_events')
    .where({ document_id: documentId, event })
    .whereNull('webhook_started_at')
    .update({ webhook_started_at: db.fn.now() });
}

/** Resolutions older than `olderThanSeconds` whose delivery workflow was never started. */
export function findUnnotifiedResolutions(
  db: Db,
  event: string,
  olderThanSeconds: number,
  limit = 500,
): Promise<{ document_id: string; account_id: string }[]> {
  return db('document_events as e')
    .join('documents as d', 'd.id', 'e.document_id')
    .select('e.document_id', 'd.account_id')
    .where({ 'e.event': event })
    .whereNull('e.webhook_started_at')
    .where('e.created_at', '<', db.raw('now() - make_interval(secs => ?)', [olderThanSeconds]))
    .orderBy('e.created_at')
    .limit(limit);
}

/** Documents whose latest delivery (original or redelivery) failed after `since`, newest first: `chasqui support redeliver`. */
export async function listFailedDeliveries(
  db: Db,
  filter: { ruc?: string; since: Date; limit: number },
): Promise<string[]> {
  const q = db('webhook_deliveries as w')
    .distinctOn('w.document_id')
    .select('w.document_id', 'w.status', 'w.completed_at')
    .orderBy([{ column: 'w.document_id' }, { column: 'w.created_at', order: 'desc' }]);
  if (filter.ruc) q.join('companies as c', 'c.id', 'w.company_id').where('c.ruc', filter.ruc);
  const latest = db
    .from(q.as('latest'))
    .where('status', 'failed')
    .where('completed_at', '>=', filter.since)
    .orderBy('completed_at', 'desc')
    .limit(filter.limit)
    .pluck('document_id');
  return latest;
}

/**
 * Deletes up to `limit` settled deliveries (their attempts go with them) that ended more than `olderThanDays` days ago,
 * oldest first, and answers how many. Read by `created_at` (indexed; a delivery ends within the hour of its retries).
 * A notice's deliveries go together: none is deleted while another delivery of the same document or check change is
 * pending or ended within the window (a redelivery points at the one it repeats and would be deleted with it). Documents are never touched. `now` (null: the database's clock) lets bench:soak measure
 * what is left once the window has passed.
 */
export async function pruneSettledDeliveries(
  db: Db,
  settled: readonly DeliveryStatus[],
  olderThanDays: number,
  limit: number,
  now: Date | null = null,
): Promise<number> {
  const { rows } = await db.raw<{ rows: { id: string }[] }>(
    `with cutoff as (select coalesce(?::timestamptz, now()) - make_interval(days => ?) as at)
     delete from webhook_deliveries where id in (
       select d.id from webhook_deliveries d, cutoff
        where d.created_at < cutoff.at and d.completed_at < cutoff.at and d.status = any(?::text[])
          and not exists (select 1 from webhook_deliveries o
                           where (o.document_id = d.document_id or o.check_event_id = d.check_event_id)
                             and (o.status <> all(?::text[]) or o.completed_at >= cutoff.at))
        order by d.created_at
        limit ?)
     returning id`,
    [now, olderThanDays, [...settled], [...settled], limit],
  );
  return rows.length;
}

/** Each delivery's last attempt (its answer code or error), for the panel's delivery log. */
export function lastAttempts(db: Db, deliveryIds: string[]): Promise<AttemptRow[]> {
  return db<AttemptRow>('webhook_attempts')
    .distinctOn('delivery_id')
    .whereIn('delivery_id', deliveryIds)
    .orderBy([{ column: 'delivery_id' }, { column: 'number', order: 'desc' }]);
}
