import { run, statement, type Db } from './knex';
import type { Knex } from 'knex';
import { companyFromJson, type CompanyRow } from './companies';
import {
  isResolvedStatus,
  RELEASE,
  STATUS_CODES,
  type DocStatus,
  type ResolutionNotice,
  type Step,
} from '../lifecycle/transitions';
import { initialEmailStatus } from '../lifecycle/email';
import { documentsTotal, verdictSeconds } from '../core/metrics';
import { isUuid } from '../core/ids';
import {
  DOCUMENT_COLUMNS,
  LIST_COLUMNS,
  type DocumentResult,
  type DocumentRow,
  type FileColumn,
  type ListedDocument,
  type NewDocument,
} from './document-row';

/**
 * The documents repository: a document's row, written at issue, as each step records its outcome, and read back by
 * id. Lists of documents (by filter, by printed number) and a document's attempts are read by db/document-lists.ts,
 * the workflow starts' mark and the sweeper's query by db/document-starts.ts. How it is shown
 * (db/document-presentation.ts), found by what people quote (db/document-references.ts), counted for metrics
 * (db/document-metrics.ts) and its buyer's e-mail (db/document-email.ts) each live beside it, and so do the row's
 * types and columns (db/document-row.ts, re-exported here: every repository caller imports them with the repository).
 */
export { DOCUMENT_COLUMNS, FILE_COLUMNS } from './document-row';
export type { DocumentResult, DocumentRow, FileColumn, ListedDocument, NewDocument } from './document-row';

/** The unique index that makes one series-number one document per RUC and environment (docs/issuing.md). */
const ONE_NUMBER_INDEX = 'documents_one_number';

/** True when `err` is PostgreSQL refusing a second document for a number already held. */
export function isNumberTaken(err: unknown): boolean {
  const e = err as { code?: string; constraint?: string };
  return e?.code === '23505' && e.constraint === ONE_NUMBER_INDEX;
}

const NUMBER_HOLDER = statement(
  'number_holder',
  `select ${DOCUMENT_COLUMNS.map((c) => `d.${c}`).join(', ')}, exists (select 1 from document_voids v where v.document_id = d.id) as voided
     from documents d
    where d.ruc = $1 and d.environment = $2 and d.doc_type = $3 and d.series = $4 and d.number = $5
    limit 1`,
);

/** The document holding a number, if any, and whether it was voided (SUNAT answers 1032 for both rejected and voided). */
export async function findNumberHolder(
  db: Db | Knex.Transaction,
  key: { ruc: string; environment: string; doc_type: string; series: string; number: number },
): Promise<(DocumentRow & { voided: boolean }) | null> {
  const [row] = await run<DocumentRow & { voided: boolean }>(db, NUMBER_HOLDER, [
    key.ruc,
    key.environment,
    key.doc_type,
    key.series,
    key.number,
  ]);
  return row ?? null;
}

/** What `insertDocument` writes; a column a caller leaves out gets its default (an id is drawn when none is given). */
const INSERTED_COLUMNS = [
  'account_id',
  'company_id',
  'ruc',
  'doc_type',
  'series',
  'number',
  'filename',
  'issue_date',
  'currency',
  'environment',
  'destination',
  'signed_by',
  'status',
  'status_code',
  'hash',
  'xml',
  'xml_sha256',
  'xml_size',
  'customer_doc',
  'totals',
  'warnings',
  'payload_hash',
  'email_to',
  'email_status',
] as const;
const INSERT_DOCUMENT = statement(
  'insert_document',
  // The signed XML (the row's largest value) is not read back: the caller holds it already.
  `insert into documents (id, ${INSERTED_COLUMNS.join(', ')})
   values (coalesce($1::uuid, gen_random_uuid()), ${INSERTED_COLUMNS.map((_, i) => `$${i + 2}`).join(', ')})
   returning ${LIST_COLUMNS.join(', ')}`,
);

export async function insertDocument(db: Db | Knex.Transaction, doc: NewDocument): Promise<DocumentRow> {
  const values: Record<(typeof INSERTED_COLUMNS)[number], unknown> = {
    ...doc,
    status_code: STATUS_CODES[doc.status],
    customer_doc: doc.customer_doc ?? null,
    totals: doc.totals && JSON.stringify(doc.totals),
    warnings: JSON.stringify(doc.warnings),
    payload_hash: doc.payload_hash ?? null,
    xml_sha256: doc.xml_sha256 ?? null,
    xml_size: doc.xml_size ?? null,
    email_to: doc.email_to?.length ? doc.email_to : null,
    email_status: initialEmailStatus(doc.email_to),
  };
  const [row] = await run<DocumentRow>(db, INSERT_DOCUMENT, [
    doc.id ?? null,
    ...INSERTED_COLUMNS.map((c) => values[c]),
  ]);
  return {
    ...row,
    xml: doc.xml,
    xml_sha256: doc.xml_sha256 ?? null,
    xml_size: doc.xml_size ?? null,
    cdr_zip: null,
    cdr_sha256: null,
    cdr_size: null,
  };
}

export async function findDocument(db: Db, id: string): Promise<DocumentRow | null> {
  if (!isUuid(id)) return null;
  return ((await db('documents').where({ id }).first()) as DocumentRow | undefined) ?? null;
}

// One round trip: the row is locked, read, and marked unless already resolved.
const BEGIN_SEND = statement(
  'begin_send',
  `with before as (select ${DOCUMENT_COLUMNS.join(', ')} from documents where id = $1 for update),
        marked as (update documents d set send_started_at = now(), send_attempts = d.send_attempts + 1, updated_at = now()
                   from before where d.id = before.id and not before.resolved and ($2::text is null or before.status = $2))
   select ${DOCUMENT_COLUMNS.map((c) => `before.${c}`).join(', ')}, to_jsonb(c) as company_json
     from before left join companies c on c.id = before.company_id`,
);

/**
 * Marks a send as under way; returns the row as it was before, so a crashed earlier attempt can be detected, and the
 * document's company (read in the same statement: the send needs its credentials). With `expected`, a row no longer
 * in that status is returned unmarked (an earlier run already sent it).
 */
export async function beginSend(
  db: Db,
  id: string,
  expected?: DocStatus,
): Promise<{ doc: DocumentRow; company: CompanyRow | null } | null> {
  const [row] = await run<DocumentRow & { company_json: Record<string, unknown> | null }>(db, BEGIN_SEND, [
    id,
    expected ?? null,
  ]);
  if (!row) return null;
  const { company_json, ...doc } = row;
  return { doc, company: company_json && companyFromJson(company_json) };
}

export interface Outcome {
  /** The step that established it, recorded in the document's timeline (document_attempts). */
  step?: Step;
  status: DocStatus;
  result: DocumentResult | null;
  ticket?: string | null;
  cdrZip?: string | null;
  /** The CDR as an object store holds it (written before this outcome is recorded), instead of `cdrZip`. */
  cdrSha256?: Buffer | null;
  cdrSize?: number | null;
  /** The document left chasqui (anything but a connection failure). */
  sent?: boolean;
  queryable?: boolean;
}

/** A row as `recordOutcome` stored it, without its XML and CDR (a write does not read them back). */
export type RecordedRow = Omit<DocumentRow, FileColumn> & {
  /**
   * Whether this call resolved the document and what its `cpe.resolved` notice then needs (lifecycle/transitions.ts
   * ResolutionNotice): a company without webhook has the event stored as already handled, so no delivery is started.
   */
  resolution_notice: ResolutionNotice;
};

// A ticket or a CDR left null keeps the stored one; `sent` stamps sent_at once; the step's attempt (support's timeline)
// is written only when there is a step and the row changed (a resolved document never changes).
const RECORD_OUTCOME = statement(
  'record_outcome',
  `with updated as (update documents
                       set status = $2, status_code = $3, resolved = $4, result = $5, send_started_at = null, updated_at = now(),
                           ticket = coalesce($6, ticket), cdr_zip = coalesce($7, cdr_zip),
                           cdr_sha256 = coalesce($13, cdr_sha256), cdr_size = coalesce($14::integer, cdr_size), queryable = coalesce($15::boolean, queryable),
                           sent_at = case when $8 then coalesce(sent_at, now()) else sent_at end,
                           resolved_at = case when $4 then now() else resolved_at end
                     where id = $1 and not resolved
                     returning ${LIST_COLUMNS.join(', ')}),
        attempt as (insert into document_attempts (document_id, step, status, code, origin, message)
                    select id, $9, $2, $10, $11, $12 from updated where $9::text is not null),
        event as (insert into document_events (document_id, company_id, event, status, webhook_started_at)
                  select u.id, u.company_id, 'cpe.resolved', u.status, case when c.webhook_url is null then now() end
                  from updated u join companies c on c.id = u.company_id
                  where u.resolved
                  on conflict (document_id, event) do nothing
                  returning webhook_started_at)
   select ${LIST_COLUMNS.map((c) => `updated.${c}`).join(', ')},
          case (select e.webhook_started_at is null from event e)
            when true then 'webhook_due' when false then 'no_webhook' else 'not_resolved_here' end as resolution_notice
     from updated`,
);

/**
 * Records what a step established, in one statement (atomic on its own, one round trip). A resolved document is never
 * changed again (resolved exactly once, even when a retried activity reports twice), and resolving writes the
 * `cpe.resolved` event in the same statement; when the company has no webhook configured the event is stored as
 * handled, so neither the workflow nor the sweeper starts a delivery that has nothing to deliver.
 * Returns the row as stored afterwards.
 */
export async function recordOutcome(db: Db, id: string, outcome: Outcome): Promise<RecordedRow> {
  const resolved = isResolvedStatus(outcome.status);
  const [stored] = await run<RecordedRow>(db, RECORD_OUTCOME, [
    id,
    outcome.status,
    STATUS_CODES[outcome.status],
    resolved,
    outcome.result && JSON.stringify(outcome.result),
    outcome.ticket ?? null,
    outcome.cdrZip || null,
    outcome.sent === true,
    outcome.step ?? null,
    outcome.result?.code ?? null,
    outcome.result?.origin ?? null,
    outcome.result?.message ?? null,
    outcome.cdrSha256 ?? null,
    outcome.cdrSize ?? null,
    outcome.queryable ?? null,
  ]);
  if (stored) {
    if (stored.resolved) countVerdict(stored);
    return stored;
  }
  return {
    ...((await db('documents')
      .where({ id })
      .first(...LIST_COLUMNS)) as RecordedRow),
    resolution_notice: 'not_resolved_here',
  };
}

/** A document just resolved: counted once, by the one statement that resolved it. */
function countVerdict(row: Pick<DocumentRow, 'doc_type' | 'status' | 'created_at' | 'resolved_at'>): void {
  documentsTotal.inc({ doc_type: row.doc_type, status: row.status });
  verdictSeconds.observe(
    { doc_type: row.doc_type, status: row.status },
    (row.resolved_at!.getTime() - row.created_at.getTime()) / 1000,
  );
}

/** Moves a manual-mode document to `queued` when its send is requested (RELEASE); false when it was not waiting. */
export async function releaseForSending(db: Db, id: string): Promise<boolean> {
  const n = await db('documents')
    .where({ id, status: RELEASE.from })
    .update({ status: RELEASE.to, status_code: STATUS_CODES[RELEASE.to], updated_at: db.fn.now() });
  return n === 1;
}
