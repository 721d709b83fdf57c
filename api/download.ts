import type { Context } from 'koa';
import type { AppDeps } from './deps';
import type { DocumentRow } from '../db/documents';
import { hasCdr } from '../files/documents';
import { PRINTABLE_TYPES, type PaperFormat } from '../documents/printed';
import { renderDocumentPdf, type PrintInput } from '../buyers/printed';
import { ApiError } from './errors';
import { admitHeavy, runHeavy } from './heavy';
import { contentDisposition, STORED_FILE_NAMES } from '../core/download-name';
import type { FileKind } from '../buyers/links';

/** A PDF rendered by the heavy-work pool in the document's account's turn; one past its time or heap is a 503. */
async function renderInPool(deps: AppDeps, row: DocumentRow, input: PrintInput): Promise<Buffer> {
  const pdf = await runHeavy(deps, row.account_id, 'pdf', input, {
    failed: (err) =>
      new ApiError(503, `The PDF of ${row.filename} could not be rendered: ${err.message}`, {
        headers: { 'Retry-After': String(Math.ceil(err.limitMs / 1000)) },
        data: { reason: err.reason },
      }),
  });
  if (!pdf.ok) throw new ApiError(422, `The document cannot be read back: ${pdf.unreadable}`);
  return Buffer.from(pdf.pdf.buffer, pdf.pdf.byteOffset, pdf.pdf.byteLength);
}

/** Why a document has no file of the kind asked: no CDR received yet, or no printed representation. */
export type Unavailable = 'no-cdr' | 'not-printed';

export interface DownloadOptions {
  /** The PDF's paper (a4 unless said); the ticket's name says so, so that both formats can sit side by side. */
  format?: PaperFormat;
  /** How the PDF is offered (the XML and the CDR are always attachments). */
  pdfDisposition?: 'attachment' | 'inline';
  /** Each surface answers a missing file in its own way (a JSON error, an HTML page). */
  unavailable: (reason: Unavailable) => void | Promise<void>;
}

/**
 * A document's XML, CDR or PDF as the answer: the one download of the API (`GET /v1/cpe/{id}/xml|cdr|pdf`), the
 * console and /consulta. The stored files are streamed and checked against their hash on the way (files/), the PDF
 * is rendered from the stored XML; each gets its type, length and SUNAT's file name (one name for every surface).
 * Who may ask, and for which document, is the surface's.
 */
export async function sendDocumentFile(
  ctx: Context,
  deps: AppDeps,
  row: DocumentRow,
  kind: FileKind,
  options: DownloadOptions,
): Promise<void> {
  if (kind === 'pdf') {
    if (!PRINTABLE_TYPES.has(row.doc_type)) return options.unavailable('not-printed');
    const format = options.format ?? 'a4';
    const pdf = await renderDocumentPdf(deps.db, row, deps.files.of(row), format, {
      cache: deps.config.pdfCache,
      // A full pool refuses before the signed XML (megabytes, for a long document) is read.
      render: async (load) => {
        admitHeavy(deps, row.account_id);
        return renderInPool(deps, row, await load());
      },
    });
    ctx.type = 'application/pdf';
    const suffix = format === 'ticket' ? '-ticket.pdf' : '.pdf';
    ctx.set('Content-Disposition', contentDisposition(options.pdfDisposition ?? 'attachment', row.filename, suffix));
    ctx.body = pdf;
    return;
  }
  if (kind === 'cdr' && !hasCdr(row)) return options.unavailable('no-cdr');
  const file = await deps.files.open(row, kind);
  // Every document has its signed XML, and hasCdr said the CDR is there.
  if (!file) throw new Error(`document ${row.filename} has no stored ${kind}`);
  const { suffix, prefix } = STORED_FILE_NAMES[kind];
  ctx.set('Content-Disposition', contentDisposition('attachment', row.filename, suffix, prefix));
  ctx.body = file.body;
  ctx.type = file.contentType;
  ctx.length = file.size;
}
