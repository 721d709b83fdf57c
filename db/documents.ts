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
  /** SHA-256 (hex) of the request body that issued it; null for what chasqui generated itself (summaries, voids). */
  payload_hash: string | null;
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
> & { id?: string; number: number; issue_date: string; totals: Record<string, string> | null; warnings: string[]; payload_hash?: string | null };

/** The unique index that makes one series-number one document per RUC and environment (docs/issuing.md). */
const ONE_NUMBER_INDEX = 'documents_one_number';

/** True when `err` is PostgreSQL refusing a second document for a number already held. */
export function isNumberTaken(err: unknown): boolean {
  const e = err as { code?: string; constraint?: string };
  return e?.code === '23505' && e.constraint === ONE_NUMBER_INDEX;
}

/** The document holding a number, if any, and whether it was voided (SUNAT answers 1032 for both rejected and voided). */
export async function findNumberHolder(
  db: Db | Knex.Transaction,
  key: { ruc: string; environment: string; doc_type: string; series: string; number: number },
): Promise<(DocumentRow & { voided: boolean }) | null> {
  const row = await db('documents as d')
    .where({ 'd.ruc': key.ruc, 'd.environment': key.environment, 'd.doc_type': key.doc_type, 'd.series': key.series, 'd.number': key.number })
    .first('d.*', db.raw('exists (select 1 from document_voids v where v.document_id = d.id) as voided'));
  return (row as (DocumentRow & { voided: boolean }) | undefined) ?? null;
}

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

/** Marks a send as under way; returns the row as it was before, so a crashed earlier attempt can be detected. */
export async function beginSend(db: Db, id: string): Promise<DocumentRow | null> {
  // One round trip: the row is locked, read, and marked unless already resolved.
  const { rows } = await db.raw(
    `with before as (select * from documents where id = ? for update),
          marked as (update documents d set send_started_at = now(), send_attempts = d.send_attempts + 1, updated_at = now()
                     from before where d.id = before.id and not before.resolved)
     select * from before`,
    [id],
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

/**
 * Records what a step established. A resolved document is never changed again (resolved exactly once, even when a
 * retried activity reports twice), and resolving writes the `cpe.resolved` event in the same transaction.
 * Returns the row as stored afterwards.
 */
export async function recordOutcome(db: Db, id: string, outcome: Outcome): Promise<DocumentRow> {
  return db.transaction(async (trx) => {
    const resolved = isResolvedStatus(outcome.status);
    const changes: Record<string, unknown> = {
      status: outcome.status,
      status_code: STATUS_CODES[outcome.status],
      resolved,
      result: outcome.result && JSON.stringify(outcome.result),
      send_started_at: null,
      updated_at: trx.fn.now(),
    };
    if (outcome.ticket !== undefined && outcome.ticket !== null) changes.ticket = outcome.ticket;
    if (outcome.cdrZip) changes.cdr_zip = outcome.cdrZip;
    if (outcome.sent) changes.sent_at = trx.raw('coalesce(sent_at, now())');
    if (resolved) changes.resolved_at = trx.fn.now();
    const [row] = await trx('documents').where({ id, resolved: false }).update(changes).returning('*');
    if (!row) return (await trx('documents').where({ id }).first()) as DocumentRow;
    if (resolved) {
      await trx('document_events')
        .insert({ document_id: id, company_id: row.company_id, event: 'cpe.resolved', status: outcome.status })
        .onConflict(['document_id', 'event'])
        .ignore();
    }
    return row as DocumentRow;
  });
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
