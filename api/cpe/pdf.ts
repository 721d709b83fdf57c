import Router from '@koa/router';
import type { AppDeps } from '../deps';
import { badRequest } from '../errors';
import { authenticate, requireScope } from '../auth';
import { rateLimit } from '../middleware/rate-limit';
import { COMPANY_SCOPE } from '../../db/tokens';
import { findLogo } from '../../db/logos';
import { findVoid } from '../../db/summaries';
import type { DocumentRow } from '../../db/documents';
import { readCdrZip } from '../../authority/cdr';
import { printDocument, PRINTABLE_TYPES, type Mark, type PaperFormat } from '../../documents/printed';
import { logger } from '../../core/logger';
import { ownDocument } from './own-document';
import { presentVoid } from './void';

const FORMATS: readonly PaperFormat[] = ['a4', 'ticket'];
const DESPATCH_TYPES = new Set(['09', '31']);

/** Why the printed document is not a valid one: demo environment, rejected, or voided by an accepted ra/rc. */
async function marksOf(deps: AppDeps, row: DocumentRow): Promise<Mark[]> {
  const marks: Mark[] = [];
  if (row.environment === '01') marks.push('demo');
  if (row.status === 'rejected') marks.push('rejected');
  const voided = await findVoid(deps.db, row.id);
  if (voided && ['accepted', 'observed'].includes((await presentVoid(deps, voided)).status)) marks.push('voided');
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

/** The printed representation of a printable document, as every surface (API, console) serves it. */
export async function renderPdf(deps: AppDeps, row: DocumentRow, format: PaperFormat): Promise<Buffer> {
  const logo = await findLogo(deps.db, row.company_id);
  return printDocument(row.xml, { format, marks: await marksOf(deps, row), logo: logo?.image ?? null, despatchCdr: despatchCdr(row) });
}

/**
 * `GET /v1/cpe/{external_id}/pdf?format=a4|ticket` (docs/documents.md, *Printed representation*): rendered on
 * request from the stored signed XML, with the same authorisation as `GET /v1/cpe/{external_id}`.
 */
export function pdfRouter(deps: AppDeps): Router {
  const router = new Router();
  const guard = [authenticate(deps), rateLimit(deps), requireScope(COMPANY_SCOPE)];

  router.get('/v1/cpe/:external_id/pdf', ...guard, async (ctx) => {
    const format = (ctx.query.format ?? 'a4') as PaperFormat;
    if (!FORMATS.includes(format)) throw badRequest(`Unknown format ${String(ctx.query.format)}`, { format: [`must be ${FORMATS.join(' or ')}`] });
    const row = await ownDocument(deps, ctx);
    if (!PRINTABLE_TYPES.has(row.doc_type)) {
      throw badRequest(`Document ${row.filename} (${row.doc_type}) has no printed representation`, { external_id: ['summaries, voids, retentions (20) and perceptions (40) are not printed'] });
    }
    const pdf = await renderPdf(deps, row, format);
    ctx.type = 'application/pdf';
    ctx.set('Content-Disposition', `attachment; filename="${row.filename}.pdf"`);
    ctx.body = pdf;
  });

  return router;
}
