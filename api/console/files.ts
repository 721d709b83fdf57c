import type { Context } from 'koa';
import type { AppDeps } from '../deps';
import { findDocument, type ListedDocument } from '../../db/documents';
import { sendDocumentFile, type Unavailable } from '../download';
import { isBusy } from '../heavy';
import type { FileKind } from '../../buyers/links';
import { notice, page } from './html';
import { writePage, type Viewer } from './context';

const UNAVAILABLE: Record<Unavailable, string> = {
  'no-cdr': 'Este documento aún no tiene CDR.',
  'not-printed': 'Este tipo de documento no tiene representación impresa.',
};

/** A document's signed XML, its CDR and its PDF (shown in the browser), for whoever may see the document. */
export async function documentFile(
  ctx: Context,
  deps: AppDeps,
  viewer: Viewer,
  listed: ListedDocument,
  kind: FileKind,
): Promise<void> {
  const row = (await findDocument(deps.db, listed.id))!;
  const frame = viewer.frame(row.filename, 'documents');
  try {
    await sendDocumentFile(ctx, deps, row, kind, {
      pdfDisposition: 'inline',
      unavailable: (reason) => writePage(ctx, 404, page(frame, notice('info', UNAVAILABLE[reason]))),
    });
  } catch (err) {
    // The heavy-work pool is full (docs/security.md, "Availability"): said as a page, with when to try again.
    if (!isBusy(err)) throw err;
    const seconds = err.extra.headers!['Retry-After'];
    ctx.set('Retry-After', seconds);
    writePage(
      ctx,
      err.status,
      page(frame, notice('refused', `Hay muchos PDF en preparación; inténtelo en ${seconds} s.`)),
    );
  }
}
