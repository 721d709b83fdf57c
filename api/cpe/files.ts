import Router from '@koa/router';
import type { Context } from 'koa';
import type { AppDeps } from '../deps';
import { notFound } from '../errors';
import { guard } from '../guard';
import { COMPANY_SCOPE } from '../../db/tokens';
import { ownDocument } from './own-document';
import { sendDocumentFile } from '../download';

/**
 * A document's files, with the authorisation of `GET /v1/cpe/{external_id}` (company token, own documents only):
 * the signed XML exactly as stored and sent, and the CDR zip exactly as the authority returned it.
 */
export function cpeFilesRouter(deps: AppDeps): Router {
  const router = new Router({ prefix: '/v1/cpe/:external_id' });
  const guarded = guard(deps, COMPANY_SCOPE);

  const download = (kind: 'xml' | 'cdr') => async (ctx: Context) => {
    const row = await ownDocument(deps, ctx);
    // Only a CDR can be missing: SUNAT names the CDR of F.zip "R-F.zip", and it arrives with the verdict.
    await sendDocumentFile(ctx, deps, row, kind, {
      unavailable: () => {
        throw notFound(
          row.resolved
            ? `Document ${row.filename} is ${row.status} but no CDR was received for it (a verdict from a ticket or a summary carries none of its own)`
            : `Document ${row.filename} has no CDR yet: it is ${row.status}; the CDR arrives with the verdict`,
        );
      },
    });
  };
  router.get('/xml', ...guarded, download('xml'));
  router.get('/cdr', ...guarded, download('cdr'));

  return router;
}
