/**
 * The printed representation (representación impresa) of a signed document: XML text in, PDF bytes out. Pure: no
 * database, no network, no clock; the caller says which marks apply and hands the logo and the CDR's QR link.
 *
 * Adding a document type: a reader `(root) => PrintedDocument` registered in READERS below (by the XML root's local
 * name) and its title in labels.ts TITLES. The layouts draw any PrintedDocument.
 */
import type { Element } from '@xmldom/xmldom';
import { parseRoot } from '../xml/read';
import { XmlBoundsError } from '../xml/bounds';
import { linesProblem } from '../line-bounds';
import { isDespatchRoot, readDespatch } from './despatch';
import { renderPrinted, type PaperFormat } from './layout';
import type { PrintedDocument } from './model';
import { isSaleRoot, readSale } from './sale';

export { CHECK_PAGE, type PaperFormat } from './layout';
export { DESPATCH_TYPES, PRINTABLE_TYPES } from './labels';
export { validateLogo, LOGO_TYPES, type LogoCheck } from './logo';
export type { PrintedDocument } from './model';

/** What makes a document not a valid one, as the mark printed across it says. */
export const MARKS = {
  demo: 'DEMO — SIN VALOR TRIBUTARIO',
  rejected: 'RECHAZADO',
  voided: 'ANULADO',
} as const;
export type Mark = keyof typeof MARKS;

export interface PrintOptions {
  format: PaperFormat;
  marks?: Mark[];
  logo?: Buffer | null;
  /**
   * Despatch guides: SUNAT's CDR, or null while there is none (the guide then says it is pending); `link` is its
   * DocumentReference/DocumentDescription, the QR's content.
   */
  despatchCdr?: { link: string | null } | null;
}

interface Reader {
  accepts(localName: string): boolean;
  read(root: Element, options: PrintOptions): PrintedDocument;
}

const READERS: Reader[] = [
  { accepts: isSaleRoot, read: (root) => readSale(root) },
  { accepts: isDespatchRoot, read: (root, options) => readDespatch(root, options.despatchCdr ?? null) },
];

export function readPrinted(xml: string, options: PrintOptions): PrintedDocument {
  const root = parseRoot(xml);
  // A document stored before the line bound (an externally signed invoice of 4,400 lines) is not printed either.
  const lines = linesProblem(root);
  if (lines) throw new XmlBoundsError(lines.message);
  const reader = READERS.find((r) => r.accepts(root.localName ?? ''));
  if (!reader) throw new Error(`no printed representation for a ${root.localName}`);
  return reader.read(root, options);
}

/** PDF bytes of a signed document; the same input always gives the same bytes. */
export function printDocument(xml: string, options: PrintOptions): Promise<Buffer> {
  return renderPrinted(readPrinted(xml, options), {
    format: options.format,
    marks: (options.marks ?? []).map((m) => MARKS[m]),
    logo: options.logo ?? null,
  });
}
