import type { Context } from 'koa';
import type { AppDeps } from '../deps';
import { findDocument, type ListedDocument } from '../../db/documents';
import { sendDocumentFile, type Unavailable } from '../download';
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
  await sendDocumentFile(ctx, deps, row, kind, {
    pdfDisposition: 'inline',
    unavailable: (reason) =>
      writePage(ctx, 404, page(viewer.frame(row.filename, 'documents'), notice('info', UNAVAILABLE[reason]))),
  });
}
