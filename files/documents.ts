import type { Readable } from 'node:stream';
import type { DocumentRow } from '../db/documents';
import { DirectoryStore } from './directory';
import type { FilesLocation } from './location';
import {
  documentFileKey,
  FileIntegrityError,
  FileMissingError,
  FileStoreUnavailableError,
  readAll,
  sha256Of,
  started,
  verifying,
  type ObjectStore,
} from './store';

export type FileKind = 'xml' | 'cdr';

export const CONTENT_TYPES: Record<FileKind, string> = { xml: 'application/xml', cdr: 'application/zip' };
const EXTENSIONS = { xml: 'xml', cdr: 'zip' } as const;

/** What a file's key is made of: the document's RUC, type and issue date (`YYYY-MM-DD`), and the bytes' SHA-256. */
type KeyColumns = Pick<DocumentRow, 'ruc' | 'doc_type' | 'issue_date'>;

/** What names a document's files: the row's own bytes (`xml`, `cdr_zip`, base64) or an object's SHA-256 and size. */
export type DocumentFileColumns = KeyColumns &
  Pick<DocumentRow, 'xml' | 'xml_sha256' | 'xml_size'> &
  Partial<Pick<DocumentRow, 'cdr_zip' | 'cdr_sha256' | 'cdr_size'>>;

/** The object key of a document's file: its row's RUC, type and issue month, and the SHA-256 the row records. */
export function fileKey(doc: KeyColumns, kind: FileKind, sha256: Buffer): string {
  return documentFileKey(doc, EXTENSIONS[kind], sha256.toString('hex'));
}

/** A row with its signed XML and CDR (base64) at hand, wherever they are kept. */
export type WithFiles<R> = R & { xml: string; cdr_zip: string | null };

/** A document's signed XML and CDR, read once each, whatever its row holds (DocumentFiles.of). */
export interface StoredFiles {
  xml(): Promise<string>;
  cdr(): Promise<Buffer | null>;
}

export interface OpenedFile {
  /** A stream checked against the key's hash as it flows (object store), or the row's own bytes (PostgreSQL). */
  body: Readable | Buffer;
  size: number;
  contentType: string;
}

/**
 * A document's signed XML and CDR wherever they are kept (docs/files.md). With `postgres:` they stay in the row as
 * they always have (nothing more is written or read: the default costs nothing); with an object store each is written
 * before the row that names it, under its content-addressed key, and every read is checked against that hash. A row
 * that still holds its bytes is read from the row, whatever the store: that is the fallback while a migration runs.
 */
export class DocumentFiles {
  constructor(readonly store: ObjectStore | null) {}

  /** The columns of a new document's signed XML: the text itself, or the key of the object just written. */
  async placeXml(doc: KeyColumns, xml: string): Promise<Pick<DocumentRow, 'xml' | 'xml_sha256' | 'xml_size'>> {
    if (!this.store) return { xml, xml_sha256: null, xml_size: null };
    const placed = await this.put(doc, 'xml', Buffer.from(xml, 'utf8'));
    return { xml: null, xml_sha256: placed.sha256, xml_size: placed.size };
  }

  /** A new document (what chasqui generates: summaries, voids) with its signed XML placed, ready to insert. */
  async placeDocument<
    D extends Pick<DocumentRow, 'ruc' | 'doc_type' | 'issue_date' | 'xml'> &
      Partial<Pick<DocumentRow, 'xml_sha256' | 'xml_size'>>,
  >(doc: D): Promise<D> {
    return doc.xml === null ? doc : { ...doc, ...(await this.placeXml(doc, doc.xml)) };
  }

  /** The columns of a CDR just received (base64 zip as the connectors give it); all null when there is none. */
  async placeCdr(
    doc: KeyColumns,
    cdrZip: string | null | undefined,
  ): Promise<Pick<DocumentRow, 'cdr_zip' | 'cdr_sha256' | 'cdr_size'>> {
    if (!cdrZip || !this.store) return { cdr_zip: cdrZip || null, cdr_sha256: null, cdr_size: null };
    const placed = await this.put(doc, 'cdr', Buffer.from(cdrZip, 'base64'));
    return { cdr_zip: null, cdr_sha256: placed.sha256, cdr_size: placed.size };
  }

  /** Writes bytes under their key (what a migration does for an existing document too). */
  async put(
    doc: KeyColumns,
    kind: FileKind,
    bytes: Buffer,
    store: ObjectStore | null = this.store,
  ): Promise<{ key: string; sha256: Buffer; size: number }> {
    if (!store) throw new Error('no object store to write to');
    const sha256 = sha256Of(bytes);
    const key = fileKey(doc, kind, sha256);
    await store.put(key, bytes, CONTENT_TYPES[kind]);
    return { key, sha256, size: bytes.length };
  }

  /** Null when the document has no such file (a CDR not received yet). */
  async open(row: DocumentFileColumns, kind: FileKind): Promise<OpenedFile | null> {
    const inline = kind === 'xml' ? row.xml : (row.cdr_zip ?? null);
    if (inline !== null && inline !== undefined) {
      const body = kind === 'xml' ? Buffer.from(inline, 'utf8') : Buffer.from(inline, 'base64');
      return { body, size: body.length, contentType: CONTENT_TYPES[kind] };
    }
    const hash = kind === 'xml' ? row.xml_sha256 : row.cdr_sha256;
    if (!hash) return null;
    const key = fileKey(row, kind, hash);
    const size = (kind === 'xml' ? row.xml_size : row.cdr_size) ?? null;
    const store = this.store;
    if (!store)
      throw new FileStoreUnavailableError(
        'postgres:',
        'get',
        new Error(`${key} is in an object store: set CHASQUI_FILES_URL to it`),
      );
    const sha256 = hash.toString('hex');
    let source: Readable;
    try {
      source = await store.get(key);
    } catch (err) {
      if (err instanceof FileMissingError) throw new FileIntegrityError(kind, key, 'missing', store.name);
      throw err;
    }
    return {
      body: await started(verifying(source, { kind, key, sha256, size, store: store.name })),
      size: size ?? 0,
      contentType: CONTENT_TYPES[kind],
    };
  }

  /** The whole file, checked (the send, the PDF, an attachment need all of it); null when there is none. */
  async read(row: DocumentFileColumns, kind: FileKind): Promise<Buffer | null> {
    const opened = await this.open(row, kind);
    if (!opened) return null;
    return Buffer.isBuffer(opened.body) ? opened.body : readAll(opened.body);
  }

  /** The signed XML, from the row when it holds it (no copy), else from the store, checked. */
  async xmlOf(row: DocumentFileColumns): Promise<string> {
    if (typeof row.xml === 'string') return row.xml;
    const bytes = await this.read(row, 'xml');
    if (!bytes) throw new Error('a document without its signed XML (neither in its row nor in a store)');
    return bytes.toString('utf8');
  }

  /** The CDR's zip; null while none was received. */
  cdrOf(row: DocumentFileColumns): Promise<Buffer | null> {
    return this.read(row, 'cdr');
  }

  /** One document's files, each read on first use and then kept: a caller that needs them twice reads them once. */
  of(row: DocumentFileColumns): StoredFiles {
    let xml: Promise<string> | undefined;
    let cdr: Promise<Buffer | null> | undefined;
    return { xml: () => (xml ??= this.xmlOf(row)), cdr: () => (cdr ??= this.cdrOf(row)) };
  }

  /** The row with its signed XML and CDR (base64) filled in, for the readers written against the row's own columns. */
  async withFiles<R extends DocumentFileColumns>(row: R): Promise<WithFiles<R>> {
    const [xml, cdr] = await Promise.all([
      this.xmlOf(row),
      row.cdr_zip ?? (row.cdr_sha256 ? this.cdrOf(row).then((b) => b!.toString('base64')) : null),
    ]);
    return { ...row, xml, cdr_zip: cdr };
  }

  async close(): Promise<void> {
    await this.store?.close();
  }
}

export function hasCdr(row: Pick<DocumentRow, 'cdr_zip' | 'cdr_sha256'>): boolean {
  return !!row.cdr_zip || !!row.cdr_sha256;
}

/** The store a location names; null for `postgres:` (the document's row). */
export function openStore(location: FilesLocation): ObjectStore | null {
  switch (location.kind) {
    case 'postgres':
      return null;
    case 'directory':
      return new DirectoryStore(location.path);
    case 's3': {
      // Loaded only here: the AWS SDK costs the default store nothing (≈ 0.4 s and its memory at every start).
      const { S3Store } = require('./s3') as typeof import('./s3');
      return new S3Store(location);
    }
  }
}

/**
 * The document files of a configured location (CHASQUI_FILES_URL): built once by each entry (`chasqui start`, `api`,
 * `worker`, the CLI commands that read files, the tests' stacks) beside its database and handed in with it, never
 * kept by a module (check:boundaries). The caller closes it when it stops.
 */
export function openDocumentFiles(location: FilesLocation): DocumentFiles {
  return new DocumentFiles(openStore(location));
}
