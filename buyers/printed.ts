import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Db } from '../db/knex';
import type { DocumentRow } from '../db/documents';
import { findLogo } from '../db/logos';
import { isVoided } from '../db/voids';
import { readCdrZip } from '../authority/cdr';
import { findPrintedPdf, keepPrintedPdf, type PrintedCacheBounds } from '../db/printed-cache';
import {
  DESPATCH_TYPES,
  printDocument,
  validateLogo,
  type Mark,
  type PaperFormat,
  type PrintOptions,
} from '../documents/printed';
import { logger } from '../core/logger';
import { printedCacheLookups } from '../core/metrics';
import type { StoredFiles } from '../files/documents';
import { isRejected } from '../lifecycle/transitions';

/** Why the printed document is not a valid one: demo environment, rejected, or voided by an accepted ra/rc. */
async function marksOf(db: Db, row: DocumentRow): Promise<Mark[]> {
  const marks: Mark[] = [];
  if (row.environment === '01') marks.push('demo');
  if (isRejected(row.status)) marks.push('rejected');
  if (await isVoided(db, row.id)) marks.push('voided');
  return marks;
}

/** A guide's CDR with the QR link it carries; null while there is none (the PDF then says the guide is pending). */
async function despatchCdr(row: DocumentRow, files: StoredFiles): Promise<{ link: string | null } | null> {
  if (!DESPATCH_TYPES.has(row.doc_type)) return null;
  const zip = await files.cdr();
  if (!zip) return null;
  const read = readCdrZip(zip);
  if (!read.ok) {
    logger.warn({ externalId: row.id, reason: read.reason }, 'stored CDR unreadable; guide printed as pending');
    return null;
  }
  return { link: read.cdr.documentLink };
}

/**
 * The company's logo, checked again before pdfkit decodes it: a logo stored before the upload's checks (pixels, the
 * inflated size) is left out of the PDF rather than decoded.
 */
async function printableLogo(db: Db, row: DocumentRow): Promise<Buffer | null> {
  const logo = await findLogo(db, row.company_id);
  if (!logo) return null;
  // The check inflates the image (1 ms for a small logo, 27 ms at 2000×1000 RGBA): once per stored logo, not per PDF.
  const key = `${logo.company_id}:${logo.updated_at.getTime()}`;
  let checked = CHECKED_LOGOS.get(key);
  if (!checked) {
    if (CHECKED_LOGOS.size >= 1_000) CHECKED_LOGOS.clear();
    const check = validateLogo(logo.image, logo.content_type);
    CHECKED_LOGOS.set(key, (checked = check.ok ? { ok: true } : { ok: false, reason: check.reason }));
  }
  if (checked.ok) return logo.image;
  logger.warn({ externalId: row.id, ruc: row.ruc, reason: checked.reason }, 'stored logo unusable; printed without it');
  return null;
}

/** Stored logos already checked, by company and upload time (a new upload is a new key). */
const CHECKED_LOGOS = new Map<string, { ok: true } | { ok: false; reason: string }>();

/** What a stored document's PDF is rendered from: its signed XML, and the marks, logo and CDR link read for it. */
export interface PrintInput {
  xml: string;
  options: PrintOptions;
}

/**
 * Renders a PDF on a miss of the printed cache; `load` reads the signed XML (a large one is megabytes), so a caller
 * that may refuse (the API's pool, when full) does so before reading it.
 */
export type PdfRenderer = (load: () => Promise<PrintInput>) => Promise<Buffer>;

const renderHere: PdfRenderer = async (load) => {
  const input = await load();
  return printDocument(input.xml, input.options);
};

/**
 * The printed cache's key: everything the PDF depends on and the renderer's own source, so that a document whose
 * state changes, a new logo or a new release of documents/printed/ gets a new PDF. The signed XML is named by its
 * document and digest (a document's XML is written once and never changed), so a hit reads no XML.
 */
function printedKey(row: DocumentRow, options: PrintOptions): string {
  const { format, marks, logo, despatchCdr: cdr } = options;
  const sha = (bytes: string | Buffer) => createHash('sha256').update(bytes).digest('hex');
  const parts = [RENDERER_VERSION(), row.id, row.hash, format, [...(marks ?? [])].sort(), logo ? sha(logo) : null, cdr];
  return sha(JSON.stringify(parts));
}

/** A hash of documents/printed/'s sources and pdfkit's package.json, read once: a code change is a new cache key. */
const RENDERER_VERSION = (() => {
  let version: string | null = null;
  return () => {
    if (version) return version;
    const dir = path.resolve(__dirname, '../documents/printed');
    const hash = createHash('sha256').update(
      readFileSync(path.join(path.dirname(require.resolve('pdfkit')), '../package.json')),
    );
    for (const name of readdirSync(dir).sort()) hash.update(name).update(readFileSync(path.join(dir, name)));
    return (version = hash.digest('hex'));
  };
})();

/**
 * The printed representation of a stored document, rendered from its signed XML with the company's logo and the
 * marks its state calls for: what GET /v1/cpe/{id}/pdf serves, the buyer's e-mail attaches and /consulta links to,
 * byte for byte the same for the same state. Kept in the printed cache (db/printed-cache.ts, docs/files.md) and
 * rendered only when it holds none: by `render` (the API's heavy-work pool), else in this process (the worker's
 * e-mail, which runs no HTTP and has its own activity slots for a bound). The caller hands in the document and its
 * files (DocumentFiles.of): a cache hit reads no XML, and what the caller reads too is read once.
 */
export async function renderDocumentPdf(
  db: Db,
  row: DocumentRow,
  files: StoredFiles,
  format: PaperFormat,
  options: { cache: PrintedCacheBounds; render?: PdfRenderer },
): Promise<Buffer> {
  const print: PrintOptions = {
    format,
    marks: await marksOf(db, row),
    logo: await printableLogo(db, row),
    despatchCdr: await despatchCdr(row, files),
  };
  const key = printedKey(row, print);
  const kept = await findPrintedPdf(db, key, options.cache);
  printedCacheLookups.inc({ outcome: kept ? 'hit' : 'miss' });
  if (kept) return kept;
  const pdf = await (options.render ?? renderHere)(async () => ({ xml: await files.xml(), options: print }));
  await keepPrintedPdf(db, key, pdf, options.cache);
  return pdf;
}
