/**
 * A document as integrators read it (spec 2.5): what GET /v1/cpe/{external_id} and the list answer, and what the
 * webhook carries as `document`. Beside the repository rather than in api/ because the webhook activity presents it
 * too, and activities/ may not import the API room.
 */
import type { DocumentRow, ListedDocument } from './document-row';
import { PRINTABLE_TYPES } from '../documents/printed/labels';
import { shownEmailStatus } from '../lifecycle/email';

/** Spec 2.5: what GET /v1/cpe/{external_id} returns and what the webhook carries as `document`. */
export function toApiDocument(row: ListedDocument | DocumentRow) {
  const hasCdr = 'has_cdr' in row ? row.has_cdr : !!row.cdr_zip || !!row.cdr_sha256;
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
    email: presentEmail(row),
    // Paths under the API's base URL: the signed XML, the CDR once there is one, the PDF for printable types.
    links: {
      xml: `/v1/cpe/${row.id}/xml`,
      cdr: hasCdr ? `/v1/cpe/${row.id}/cdr` : null,
      pdf: PRINTABLE_TYPES.has(row.doc_type) ? `/v1/cpe/${row.id}/pdf` : null,
    },
  };
}

/** The buyer's e-mail as GET and the webhook show it; null when the payload named no address. */
function presentEmail(
  row: Pick<DocumentRow, 'status' | 'email_to' | 'email_status' | 'email_attempts' | 'email_error'>,
) {
  if (!row.email_to || !row.email_status) return null;
  return {
    status: shownEmailStatus(row.status, row.email_status),
    to: row.email_to,
    attempts: row.email_attempts,
    last_error: row.email_error,
  };
}
