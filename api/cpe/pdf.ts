import Router from '@koa/router';
import type { AppDeps } from '../deps';
import { badRequest } from '../errors';
import { guard } from '../guard';
import { COMPANY_SCOPE } from '../../db/tokens';
import { type PaperFormat } from '../../documents/printed';
import { sendDocumentFile } from '../download';
import { ownDocument } from './own-document';

const FORMATS: readonly PaperFormat[] = ['a4', 'ticket'];

/**
 * `GET /v1/cpe/{external_id}/pdf?format=a4|ticket` (docs/documents.md, *Printed representation*): rendered on
 * request from the stored signed XML, with the same authorisation as `GET /v1/cpe/{external_id}`.
 */
export function pdfRouter(deps: AppDeps): Router {
  const router = new Router();
  const guarded = guard(deps, COMPANY_SCOPE);

  router.get('/v1/cpe/:external_id/pdf', ...guarded, async (ctx) => {
    const format = (ctx.query.format ?? 'a4') as PaperFormat;
    if (!FORMATS.includes(format))
      throw badRequest(`Unknown format ${String(ctx.query.format)}`, { format: [`must be ${FORMATS.join(' or ')}`] });
    const row = await ownDocument(deps, ctx);
    await sendDocumentFile(ctx, deps, row, 'pdf', {
      format,
      unavailable: () => {
        throw badRequest(`Document ${row.filename} (${row.doc_type}) has no printed representation`, {
          external_id: ['summaries, voids, retentions (20) and perceptions (40) are not printed'],
        });
      },
    });
  });

  return router;
}
