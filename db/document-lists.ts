/**
 * Documents read as lists: by filter (GET /v1/cpe, the console, `chasqui support`), by the number printed on them
 * (/consulta), and each document's attempts (its timeline). The columns are the list's (db/document-row.ts), never the
 * XML or the CDR.
 */
import type { Knex } from 'knex';
import type { Db } from './knex';
import type { DocStatus, Step } from '../lifecycle/transitions';
import { LIST_COLUMNS, type ListedDocument } from './document-row';

/** The filters of GET /v1/cpe and of `chasqui support` selections; every one is index-backed (bench:list). */
export interface DocumentFilter {
  /** One company (the API always scopes to one), or some (a console user limited to them); absent: across companies. */
  companyId?: string | string[];
  /** Every company of one account (an account holder in the console). */
  accountId?: string;
  ruc?: string;
  statuses?: DocStatus[];
  docType?: string;
  series?: string;
  number?: number;
  /** Issue date range, inclusive, YYYY-MM-DD. */
  issuedFrom?: string;
  issuedTo?: string;
  resolved?: boolean;
  customerDoc?: string;
  /** Issued (committed) before this instant: `chasqui support stuck --older-than`. */
  createdBefore?: Date;
  ids?: string[];
  /** The page after this document (the previous page's last external_id). */
  before?: string;
  limit: number;
}

/** The list's columns of `documents` read under `alias`, `has_cdr` included, as SQL (for statements that join it). */
export function listedColumns(alias: string): string {
  return [
    ...LIST_COLUMNS.map((column) => `${alias}.${column}`),
    `(${alias}.cdr_zip is not null or ${alias}.cdr_sha256 is not null) as has_cdr`,
  ].join(', ');
}

/** A query of listed documents (`ListedDocument`), to narrow. */
export function selectListed(db: Db): Knex.QueryBuilder {
  return db('documents').select(db.raw(listedColumns('documents')));
}

/**
 * Documents newest first (created_at, then id; issue_date first when a date range is given), `limit` of them after the
 * `before` document. The cursor is compared
 * as a row value read in SQL, so microsecond timestamps survive and documents added meanwhile never shift a page.
 */
export function listDocuments(db: Db, filter: DocumentFilter): Promise<ListedDocument[]> {
  return listQuery(db, filter) as unknown as Promise<ListedDocument[]>;
}

/** The query of `listDocuments`, unrun (bench:list explains it). */
export function listQuery(db: Db, filter: DocumentFilter): Knex.QueryBuilder {
  const q = selectListed(db);
  if (filter.companyId) q.whereIn('company_id', [filter.companyId].flat());
  if (filter.accountId) q.whereIn('company_id', db('companies').select('id').where('account_id', filter.accountId));
  if (filter.ruc) q.where('ruc', filter.ruc);
  if (filter.statuses?.length) q.whereIn('status', filter.statuses);
  if (filter.docType) q.where('doc_type', filter.docType);
  if (filter.series) q.where('series', filter.series);
  if (filter.number !== undefined) q.where('number', filter.number);
  if (filter.issuedFrom) q.where('issue_date', '>=', filter.issuedFrom);
  if (filter.issuedTo) q.where('issue_date', '<=', filter.issuedTo);
  if (filter.resolved !== undefined) q.where('resolved', filter.resolved);
  if (filter.customerDoc) q.where('customer_doc', filter.customerDoc);
  if (filter.createdBefore) q.where('created_at', '<', filter.createdBefore);
  if (filter.ids) q.whereIn('id', filter.ids);
  // With an issue-date range the list runs by issue date (then issue instant): a page is then one range of the
  // (company, issue_date desc, created_at desc, id desc) index however far back the range lies.
  const order = filter.issuedFrom || filter.issuedTo ? ['issue_date', 'created_at', 'id'] : ['created_at', 'id'];
  if (filter.before)
    q.whereRaw(`(${order.join(', ')}) < (select ${order.join(', ')} from documents where id = ?)`, [filter.before]);
  return q.orderBy(order.map((column) => ({ column, order: 'desc' as const }))).limit(filter.limit);
}

export interface AttemptRecord {
  step: Step;
  status: DocStatus;
  code: string | null;
  origin: string | null;
  message: string | null;
  created_at: Date;
}

/** Each send, ticket poll and state query of the document, oldest first. */
export function listDocumentAttempts(db: Db, documentId: string): Promise<AttemptRecord[]> {
  return db('document_attempts')
    .where({ document_id: documentId })
    .orderBy('id')
    .select('step', 'status', 'code', 'origin', 'message', 'created_at');
}

/**
 * The documents printed with this RUC, type, series and number (at most one per environment, production first):
 * the consultation page compares the rest of what the buyer typed. The environments are named so the one-number
 * index is used whatever the company's size.
 */
export function findByPrintedNumber(
  db: Db,
  key: { ruc: string; docType: string; series: string; number: number },
): Promise<ListedDocument[]> {
  return selectListed(db)
    .where({ ruc: key.ruc, doc_type: key.docType, series: key.series, number: key.number })
    .whereIn('environment', ['02', '01'])
    .orderBy('environment', 'desc') as unknown as Promise<ListedDocument[]>;
}
