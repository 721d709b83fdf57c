import type { Db } from '../db/knex';
import type { DocumentRow } from '../db/documents';
import { findLogo } from '../db/logos';
import { isVoided } from '../db/summaries';
import { readCdrZip } from '../authority/cdr';
import { printDocument, type Mark, type PaperFormat } from '../documents/printed';
import { logger } from '../core/logger';

const DESPATCH_TYPES = new Set(['09', '31']);

/** Why the printed document is not a valid one: demo environment, rejected, or voided by an accepted ra/rc. */
async function marksOf(db: Db, row: DocumentRow): Promise<Mark[]> {
  const marks: Mark[] = [];
  if (row.environment === '01') marks.push('demo');
  if (row.status === 'rejected') marks.push('rejected');
  if (await isVoided(db, row.id)) marks.push('voided');
  return marks;
}

/** A guide's CDR with the QR link it carries; null while there is none (the PDF then says the guide is pending). */
function despatchCdr(row: DocumentRow): { link: string | null } | null {
  if (!DESPATCH_TYPES.has(row.doc_type) || !row.cdr_zip) return null;
  const read = readCdrZip(Buffer.from(row.cdr_zip, 'base64'));
  if (!read.ok) {
    logger.warn({ externalId: row.id, reason: read.reason }, 'stored CDR unreadable; guide printed as pending');
    return null;
  }
  return { link: read.cdr.documentLink };
}

/**
 * The printed representation of a stored document, rendered from its signed XML with the company's logo and the
 * marks its state calls for: what GET /v1/cpe/{id}/pdf serves, the buyer's e-mail attaches and /consulta links to,
 * byte for byte the same for the same state.
 */
export async function renderDocumentPdf(db: Db, row: DocumentRow, format: PaperFormat): Promise<Buffer> {
  const logo = await findLogo(db, row.company_id);
  return printDocument(row.xml, {
    format,
    marks: await marksOf(db, row),
    logo: logo?.image ?? null,
    despatchCdr: despatchCdr(row),
  });
}
