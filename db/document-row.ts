/**
 * A row of `documents` as TypeScript and SQL name it: its types and column lists, shared by the repository
 * (db/documents.ts) and what reads rows beside it. Declarations only.
 */
import type { DocStatus } from '../lifecycle/transitions';
import type { EmailStatus } from '../lifecycle/email';

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
  /**
   * The workflow queries its real state by itself (activities/document-routing.ts `queryable`, recorded with each
   * step's outcome; a step that says nothing leaves it); null before the first.
   */
  queryable: boolean | null;
  hash: string;
  /** The signed XML in the row (the `postgres:` file store, and every document issued before another store); null when in an object store. */
  xml: string | null;
  /** The CDR zip in base64 in the row; null when there is none yet or when it is in an object store. */
  cdr_zip: string | null;
  /**
   * The SHA-256 (32 bytes) and size of the signed XML in an object store: its key is `RUC/type/year/month/<sha256>.xml`
   * from this row's own columns (files/documents.ts, docs/files.md). Null while the bytes are in the row.
   */
  xml_sha256: Buffer | null;
  xml_size: number | null;
  /** The same for the CDR (`….zip`). */
  cdr_sha256: Buffer | null;
  cdr_size: number | null;
  /** The customer's document number (RUC, DNI…), for the list's `cliente` filter; null when the document has none. */
  customer_doc: string | null;
  totals: Record<string, string> | null;
  warnings: string[];
  /** SHA-256 (hex) of the request body that issued it; null for what chasqui generated itself (summaries, voids). */
  payload_hash: string | null;
  /** Where the accepted document is e-mailed (`cliente.correo`); null when nowhere. */
  email_to: string[] | null;
  email_status: EmailStatus | null;
  email_attempts: number;
  email_error: string | null;
  email_sent_at: Date | null;
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
  | 'account_id'
  | 'company_id'
  | 'ruc'
  | 'doc_type'
  | 'series'
  | 'filename'
  | 'currency'
  | 'environment'
  | 'destination'
  | 'signed_by'
  | 'status'
  | 'hash'
  | 'xml'
> &
  Partial<Pick<DocumentRow, 'xml_sha256' | 'xml_size'>> & {
    id?: string;
    number: number;
    issue_date: string;
    totals: Record<string, string> | null;
    warnings: string[];
    payload_hash?: string | null;
    customer_doc?: string | null;
    email_to?: string[] | null;
  };

/** Every column but the signed XML and the CDR: what a list shows, and what writes read back. */
export const LIST_COLUMNS = [
  'id',
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
  'resolved',
  'ticket',
  'result',
  'queryable',
  'hash',
  'customer_doc',
  'totals',
  'warnings',
  'send_attempts',
  'send_started_at',
  'workflow_started_at',
  'sent_at',
  'resolved_at',
  'created_at',
  'updated_at',
  'email_to',
  'email_status',
  'email_attempts',
  'email_error',
  'email_sent_at',
] as const;

/** Where a document's signed XML and CDR are: the bytes in the row, or an object store's keys (files/). */
export const FILE_COLUMNS = ['xml', 'cdr_zip', 'xml_sha256', 'xml_size', 'cdr_sha256', 'cdr_size'] as const;
export type FileColumn = (typeof FILE_COLUMNS)[number];

/** Every column of documents, as the prepared statements that read whole rows name them. */
export const DOCUMENT_COLUMNS = [...LIST_COLUMNS, 'payload_hash', ...FILE_COLUMNS] as const;

/** A listed document: whether it has a CDR stands in for the CDR itself (its `links.cdr`). */
export type ListedDocument = Omit<DocumentRow, FileColumn> & { has_cdr: boolean };
