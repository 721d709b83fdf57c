import Router from '@koa/router';
import type { AppDeps } from '../deps';
import { badRequest } from '../errors';
import { authenticate, requireScope } from '../auth';
import { rateLimit } from '../middleware/rate-limit';
import { COMPANY_SCOPE } from '../../db/tokens';
import { PRINTABLE_TYPES, type PaperFormat } from '../../documents/printed';
import { renderDocumentPdf } from '../../buyers/printed';
import { documentFiles } from '../../files/documents';
import { contentDisposition } from '../../core/download-name';
import { ownDocument } from './own-document';

const FORMATS: readonly PaperFormat[] = ['a4', 'ticket'];

/** SUNAT's file name for the A4 (`20123456786-01-F001-245.pdf`), with `-ticket` before `.pdf` for the 80 mm roll. */
/**
 * `GET /v1/cpe/{external_id}/pdf?format=a4|ticket` (docs/documents.md, *Printed representation*): rendered on
 * request from the stored signed XML, with the same authorisation as `GET /v1/cpe/{external_id}`.
 */
export function pdfRouter(deps: AppDeps): Router {
  const router = new Router();
  const guard = [authenticate(deps), rateLimit(deps), requireScope(COMPANY_SCOPE)];

  router.get('/v1/cpe/:external_id/pdf', ...guard, async (ctx) => {
    const format = (ctx.query.format ?? 'a4') as PaperFormat;
    if (!FORMATS.includes(format))
      throw badRequest(`Unknown format ${String(ctx.query.format)}`, { format: [`must be ${FORMATS.join(' or ')}`] });
    const row = await ownDocument(deps, ctx);
    if (!PRINTABLE_TYPES.has(row.doc_type)) {
      throw badRequest(`Document ${row.filename} (${row.doc_type}) has no printed representation`, {
        external_id: ['summaries, voids, retentions (20) and perceptions (40) are not printed'],
      });
    }
    const pdf = await renderDocumentPdf(deps.db, documentFiles(deps.config), row, format);
    ctx.type = 'application/pdf';
    // The ticket's name says so: `curl -OJ` of both formats must not write one file over the other.
    ctx.set(
      'Content-Disposition',
      contentDisposition('attachment', row.filename, format === 'ticket' ? '-ticket.pdf' : '.pdf'),
    );
    ctx.body = pdf;
  });

  return router;
}
