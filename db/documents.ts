import type { Db } from './knex';
import type { Knex } from 'knex';
import { isResolvedStatus, type DocStatus } from '../workflows/document-types';

/** Spec 2.5 `status_code`: `09` is the spec's rejected; the rest are chasqui's (docs/issuing.md). */
export const STATUS_CODES: Record<DocStatus, string> = {
  queued: '01',
  to_send: '02',
  to_summarize: '03',
  registered: '04',
  sent: '05',
  accepted: '06',
  observed: '07',
  rejected: '09',
};

/** Spec 2.5 `result`. */
export interface DocumentResult {
  code: string | null;
  message: string;
  errors: string[];
  origin: string | null;
  origin_description: string | null;
  action: string | null;
  reached_sunat: boolean | null;
  observations?: string[];
  success?: false;
  external_id?: string;
}

export interface DocumentRow {
  id: string;
  account_id: string;
  company_id: string;
  ruc: string;
  doc_type: string;
  series: string;
  number: string | number;
  filename: string;
  issue_date: string;
  currency: string | null;
  environment: string;
  destination: string;
  signed_by: string;
  status: DocStatus;
  status_code: string;
  resolved: boolean;
  ticket: string | null;
  result: DocumentResult | null;
  hash: string;
  xml: string;
  cdr_zip: string | null;
  totals: Record<string, string> | null;
  warnings: string[];
  send_attempts: number;
  send_started_at: Date | null;
  workflow_started_at: Date | null;
  sent_at: Date | null;
  resolved_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export type NewDocument = Pick<
  DocumentRow,
  'account_id' | 'company_id' | 'ruc' | 'doc_type' | 'series' | 'filename' | 'currency' | 'environment' | 'destination' | 'signed_by' | 'status' | 'hash' | 'xml'
> & { id?: string; number: number; issue_date: string; totals: Record<string, string> | null; warnings: string[] };

export async function insertDocument(db: Db | Knex.Transaction, doc: NewDocument): Promise<DocumentRow> {
  const [row] = await db('documents')
    .insert({ ...doc, status_code: STATUS_CODES[doc.status], totals: doc.totals && JSON.stringify(doc.totals), warnings: JSON.stringify(doc.warnings) })
    .returning('*');
  return row as DocumentRow;
}

export async function findDocument(db: Db, id: string): Promise<DocumentRow | null> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return null;
  return ((await db('documents').where({ id }).first()) as DocumentRow | undefined) ?? null;
}

/**
 * Marks a send as under way; returns the row as it was before, so a crashed earlier attempt can be detected. With
 * `expected`, a row no longer in that status is returned unmarked (an earlier run already sent it).
 */
export async function beginSend(db: Db, id: string, expected?: DocStatus): Promise<DocumentRow | null> {
  // One round trip: the row is locked, read, and marked unless already resolved.
  const { rows } = await db.raw(
    `with before as (select * from documents where id = ? for update),
          marked as (update documents d set send_started_at = now(), send_attempts = d.send_attempts + 1, updated_at = now()
                     from before where d.id = before.id and not before.resolved and (?::text is null or before.status = ?))
     select * from before`,
    [id, expected ?? null, expected ?? null],
  );
  return (rows[0] as DocumentRow | undefined) ?? null;
}

export interface Outcome {
  status: DocStatus;
  result: DocumentResult | null;
  ticket?: string | null;
  cdrZip?: string | null;
  /** The document left chasqui (anything but a connection failure). */
  sent?: boolean;
}

/** A row as `recordOutcome` stored it. */
export type RecordedRow = DocumentRow & {
  /**
   * Set when this call resolved the document: whether its `cpe.resolved` notice needs a webhook delivery (false: the
   * company has no webhook, so the event is stored as already handled and no delivery workflow is started). Null when
   * the document was resolved before this call.
   */
  webhook_due: boolean | null;
};

/**
 * Records what a step established, in one statement (atomic on its own, one round trip). A resolved document is never
 * changed again (resolved exactly once, even when a retried activity reports twice), and resolving writes the
 * `cpe.resolved` event in the same statement; when the company has no webhook configured the event is stored as
 * handled, so neither the workflow nor the sweeper starts a delivery that has nothing to deliver.
 * Returns the row as stored afterwards.
 */
export async function recordOutcome(db: Db, id: string, outcome: Outcome): Promise<RecordedRow> {
  const resolved = isResolvedStatus(outcome.status);
  const changes: Record<string, unknown> = {
    status: outcome.status,
    status_code: STATUS_CODES[outcome.status],
    resolved,
    result: outcome.result && JSON.stringify(outcome.result),
    send_started_at: null,
    updated_at: db.fn.now(),
  };
  if (outcome.ticket !== undefined && outcome.ticket !== null) changes.ticket = outcome.ticket;
  if (outcome.cdrZip) changes.cdr_zip = outcome.cdrZip;
  if (outcome.sent) changes.sent_at = db.raw('coalesce(sent_at, now())');
  if (resolved) changes.resolved_at = db.fn.now();
  const update = db('documents').where({ id, resolved: false }).update(changes).returning('*').toSQL();
  const { rows } = await db.raw(
    `with updated as (${update.sql}),
          event as (insert into document_events (document_id, company_id, event, status, webhook_started_at)
                    select u.id, u.company_id, 'cpe.resolved', u.status, case when c.webhook_url is null then now() end
                    from updated u join companies c on c.id = u.company_id
                    where u.resolved
                    on conflict (document_id, event) do nothing
                    returning webhook_started_at)
     select updated.*, (select e.webhook_started_at is null from event e) as webhook_due from updated`,
    update.bindings,
  );
  if (rows[0]) return rows[0] as RecordedRow;
  return { ...((await db('documents').where({ id }).first()) as DocumentRow), webhook_due: null };
}

/** Moves a manual-mode document to `queued` when its send is requested; false when it was not waiting. */
export async function releaseForSending(db: Db, id: string): Promise<boolean> {
  const n = await db('documents')
    .where({ id, status: 'to_send' })
    .update({ status: 'queued', status_code: STATUS_CODES.queued, updated_at: db.fn.now() });
  return n === 1;
}

export async function markWorkflowStarted(db: Db, ids: string[]): Promise<void> {
  if (ids.length) await db('documents').whereIn('id', ids).whereNull('workflow_started_at').update({ workflow_started_at: db.fn.now() });
}

/** Documents committed longer than `olderThanSeconds` ago whose workflow was never started (the API died in between). */
export async function findUnstartedDocuments(db: Db, olderThanSeconds: number, limit = 500): Promise<Pick<DocumentRow, 'id' | 'ruc' | 'doc_type' | 'status'>[]> {
  return db('documents')
    .select('id', 'ruc', 'doc_type', 'status')
    .whereNull('workflow_started_at')
    .whereNotIn('status', ['to_summarize'])
    .where('created_at', '<', db.raw(`now() - make_interval(secs => ?)`, [olderThanSeconds]))
    .orderBy('created_at')
    .limit(limit);
}

/** Spec 2.5: what GET /v1/cpe/{external_id} returns and what the webhook carries as `document`. */
export function toApiDocument(row: DocumentRow) {
  return {
    external_id: row.id,
    filename: row.filename,
    document_type_id: row.doc_type,
    series: row.series,
    number: Number(row.number),
    status_code: row.status_code,
    status: row.status,
    resolved: row.resolved,
    ticket: row.ticket,
    result: row.result,
    environment: row.environment,
    hash: row.hash,
    issued_at: row.created_at.toISOString(),
    resolved_at: row.resolved_at ? row.resolved_at.toISOString() : null,
  };
}
