import type { Context } from 'koa';
import type { AppDeps } from '../deps';
import { findDocument, type ListedDocument } from '../../db/documents';
import { PRINTABLE_TYPES } from '../../documents/printed';
import { renderDocumentPdf } from '../../buyers/printed';
import { sendStoredFile } from '../download';
import { documentFiles, hasCdr } from '../../files/documents';
import { contentDisposition } from '../../core/download-name';
import { notice, page } from './html';
import { writePage, type Viewer } from './context';

export type FileKind = 'xml' | 'cdr' | 'pdf';

/** A document's signed XML, its CDR and its PDF, for whoever may see the document. */
export async function documentFile(
  ctx: Context,
  deps: AppDeps,
  viewer: Viewer,
  listed: ListedDocument,
  kind: FileKind,
): Promise<void> {
  const row = (await findDocument(deps.db, listed.id))!;
  if (kind === 'xml') {
    await sendStoredFile(ctx, documentFiles(deps.config), row, 'xml');
    return;
  }
  if (kind === 'cdr') {
    if (!hasCdr(row))
      return writePage(
        ctx,
        404,
        page(viewer.frame(row.filename, 'documents'), notice('info', 'Este documento aún no tiene CDR.')),
      );
    await sendStoredFile(ctx, documentFiles(deps.config), row, 'cdr');
    return;
  }
  if (!PRINTABLE_TYPES.has(row.doc_type))
    return writePage(
      ctx,
      404,
      page(
        viewer.frame(row.filename, 'documents'),
        notice('info', 'Este tipo de documento no tiene representación impresa.'),
      ),
    );
  ctx.type = 'application/pdf';
  ctx.set('Content-Disposition', contentDisposition('inline', row.filename, '.pdf'));
  ctx.body = await renderDocumentPdf(deps.db, documentFiles(deps.config), row, 'a4');
}
