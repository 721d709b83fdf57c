/**
 * The names of downloaded and attached files. They come from SUNAT's file name of a document (RUC-TT-SERIE-NUMERO,
 * RUC-RC-YYYYMMDD-N) whose parts were validated when the document was issued; they are checked again here, where
 * they enter a header, so that no CR/LF, quote, path separator or non-ASCII byte ever reaches one
 * (docs/security.md, "File names").
 */

const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,119}$/;

/** `prefix` (SUNAT's `R-` of a CDR) + `base` + `suffix` (`.xml`, `-ticket.pdf`, …); `documento` for an unsafe base. */
export function downloadName(base: string, suffix: string, prefix = ''): string {
  return `${prefix}${SAFE_NAME.test(base) ? base : 'documento'}${suffix}`;
}

/** SUNAT's names of a document's stored files: the signed XML `….xml`, its CDR `R-….zip`. */
export const STORED_FILE_NAMES = {
  xml: { suffix: '.xml', prefix: '' },
  cdr: { suffix: '.zip', prefix: 'R-' },
} as const;

/** A Content-Disposition header (RFC 6266) naming `downloadName(…)`: `filename` and its `filename*`. */
export function contentDisposition(kind: 'attachment' | 'inline', base: string, suffix: string, prefix = ''): string {
  const name = downloadName(base, suffix, prefix);
  return `${kind}; filename="${name}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}
