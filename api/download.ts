import type { Context } from 'koa';
import type { DocumentRow } from '../db/documents';
import type { DocumentFiles, FileKind } from '../files/documents';
import { contentDisposition, STORED_FILE_NAMES } from '../core/download-name';

/**
 * A document's stored file as the answer (the API's, the console's and /consulta's downloads): streamed from the
 * store and checked against its hash on the way (files/), with its type, length and SUNAT's file name (one name for
 * every surface). False when the document has no such file (a CDR not received yet); the caller answers that.
 */
export async function sendStoredFile(
  ctx: Context,
  files: DocumentFiles,
  row: DocumentRow,
  kind: FileKind,
): Promise<boolean> {
  const file = await files.open(row, kind);
  if (!file) return false;
  const { suffix, prefix } = STORED_FILE_NAMES[kind];
  ctx.set('Content-Disposition', contentDisposition('attachment', row.filename, suffix, prefix));
  ctx.body = file.body;
  ctx.type = file.contentType;
  ctx.length = file.size;
  return true;
}
