/**
 * What the heavy-work pool's threads run (heavy/thread.ts): each task a pure function of plain values and Buffers,
 * with no database, network or clock. Loaded only inside a pool thread; the API imports these types alone, so its
 * own thread never holds pdfkit's fonts or node-forge for an upload.
 */
import { printDocument, type PrintOptions } from '../documents/printed';
import { loadPfx } from '../documents/signing';
import { readSignedDocument, type ExternalDocument } from '../documents/external';
import { DocumentValidationError, type ValidationIssue } from '../documents/errors';
import { XmlBoundsError } from '../documents/xml/bounds';
import { derivePassword } from '../core/passwords';

/** A Buffer again: what crosses a thread arrives as a plain Uint8Array. */
const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** The printed representation's input: the signed XML and what the caller read of the row (marks, logo, CDR link). */
export interface PdfInput {
  xml: string;
  options: PrintOptions;
}

/** An externally signed document read, or the issues that make it a 422 (an Error's class does not cross threads). */
export type ExternalRead = { ok: true; document: ExternalDocument } | { ok: false; issues: ValidationIssue[] };

/** A PDF, or why its stored XML is past what is read back (a 422: a document stored before the bounds). */
export type PdfRender = { ok: true; pdf: Buffer } | { ok: false; unreadable: string };

export const TASKS = {
  pdf: async (input: PdfInput): Promise<PdfRender> => {
    try {
      const logo = input.options.logo ? asBuffer(input.options.logo) : null;
      return { ok: true, pdf: await printDocument(input.xml, { ...input.options, logo }) };
    } catch (err) {
      if (err instanceof XmlBoundsError) return { ok: false, unreadable: err.message };
      throw err;
    }
  },
  pfx: (input: { pfx: Uint8Array; password: string; maxBytes: number }) =>
    loadPfx(asBuffer(input.pfx), input.password, { maxBytes: input.maxBytes }),
  /** A console user's password through scrypt (core/passwords.ts): memory-hard work kept off the event loop. */
  password: derivePassword,
  xml: (input: { xml: string; issuerRuc: string }): ExternalRead => {
    try {
      return { ok: true, document: readSignedDocument(input.xml, { issuerRuc: input.issuerRuc }) };
    } catch (err) {
      if (err instanceof DocumentValidationError) return { ok: false, issues: err.issues };
      throw err;
    }
  },
};

export type HeavyTasks = typeof TASKS;
export type HeavyKind = keyof HeavyTasks;
