import type { Db } from '../db/knex';
import type { DocumentRow } from '../db/documents';
import { findLogo } from '../db/logos';
import { isVoided } from '../db/voids';
import { readCdrZip } from '../authority/cdr';
import { printDocument, validateLogo, type Mark, type PaperFormat } from '../documents/printed';
import { logger } from '../core/logger';
import type { DocumentFiles } from '../files/documents';
import { isRejected } from '../lifecycle/transitions';

const DESPATCH_TYPES = new Set(['09', '31']);

/** Why the printed document is not a valid one: demo environment, rejected, or voided by an accepted ra/rc. */
async function marksOf(db: Db, row: DocumentRow): Promise<Mark[]> {
  const marks: Mark[] = [];
  if (row.environment === '01') marks.push('demo');
  if (isRejected(row.status)) marks.push('rejected');
  if (await isVoided(db, row.id)) marks.push('voided');
  return marks;
}

/** A guide's CDR with the QR link it carries; null while there is none (the PDF then says the guide is pending). */
async function despatchCdr(files: DocumentFiles, row: DocumentRow): Promise<{ link: string | null } | null> {
  if (!DESPATCH_TYPES.has(row.doc_type)) return null;
  const zip = await files.read(row, 'cdr');
  if (!zip) return null;
  const read = readCdrZip(zip);
  if (!read.ok) {
    logger.warn({ externalId: row.id, reason: read.reason }, 'stored CDR unreadable; guide printed as pending');
    return null;
  }
  return { link: read.cdr.documentLink };
}

/**
 * The company's logo, checked again before pdfkit decodes it: a logo stored before the upload's checks (pixels, the
 * inflated size) is left out of the PDF rather than decoded.
 */
async function printableLogo(db: Db, row: DocumentRow): Promise<Buffer | null> {
  const logo = await findLogo(db, row.company_id);
  if (!logo) return null;
  // The check inflates the image (1 ms for a small logo, 27 ms at 2000×1000 RGBA): once per stored logo, not per PDF.
  const key = `${logo.company_id}:${logo.updated_at.getTime()}`;
  let checked = CHECKED_LOGOS.get(key);
  if (!checked) {
    if (CHECKED_LOGOS.size >= 1_000) CHECKED_LOGOS.clear();
    const check = validateLogo(logo.image, logo.content_type);
    CHECKED_LOGOS.set(key, (checked = check.ok ? { ok: true } : { ok: false, reason: check.reason }));
  }
  if (checked.ok) return logo.image;
  logger.warn({ externalId: row.id, ruc: row.ruc, reason: checked.reason }, 'stored logo unusable; printed without it');
  return null;
}

/** Stored logos already checked, by company and upload time (a new upload is a new key). */
const CHECKED_LOGOS = new Map<string, { ok: true } | { ok: false; reason: string }>();

/**
 * The printed representation of a stored document, rendered from its signed XML with the company's logo and the
 * marks its state calls for: what GET /v1/cpe/{id}/pdf serves, the buyer's e-mail attaches and /consulta links to,
 * byte for byte the same for the same state.
 */
export async function renderDocumentPdf(
  db: Db,
  files: DocumentFiles,
  row: DocumentRow,
  format: PaperFormat,
): Promise<Buffer> {
  return printDocument(await files.xmlOf(row), {
    format,
    marks: await marksOf(db, row),
    logo: await printableLogo(db, row),
    despatchCdr: await despatchCdr(files, row),
  });
}
