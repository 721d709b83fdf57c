import { createHash } from 'node:crypto';
import { Readable, Transform, type TransformCallback } from 'node:stream';
import { fileIntegrityFailures, fileStoreErrors } from '../core/metrics';

/**
 * One object store (docs/files.md): immutable objects under content-addressed keys. Written once, read rarely, deleted
 * only by the orphan sweeper and the migration. Keys are relative to the store (its bucket prefix or directory), so
 * the same key names the same bytes in every store: a migration between stores copies objects and changes no row.
 */
export interface ObjectStore {
  /** Where it is, for logs and errors (no credentials: those come from the standard AWS variables). */
  readonly name: string;
  /** Writes the object; writing a key that exists is harmless (same key, same bytes). */
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  /** The object's bytes as a stream; throws FileMissingError when there is no such object. */
  get(key: string): Promise<Readable>;
  head(key: string): Promise<{ size: number; modified: Date } | null>;
  delete(key: string): Promise<void>;
  /** Every object, in no promised order (the sweeper's and the migration's walk). */
  list(): AsyncIterable<{ key: string; size: number; modified: Date }>;
  close(): Promise<void>;
}

/** Seconds an answer's Retry-After asks a caller to wait while the store is unavailable. */
export const STORE_RETRY_AFTER_SECONDS = 5;

/**
 * The store could not be reached or did not answer in time: the caller answers 503 with Retry-After (`status`,
 * `expose` and `headers` as Koa's http errors carry them, so even a stream that fails before its first byte is answered
 * so) and tries again later.
 */
export class FileStoreUnavailableError extends Error {
  readonly status = 503;
  readonly expose = true;
  readonly headers = { 'Retry-After': String(STORE_RETRY_AFTER_SECONDS) };
  constructor(
    readonly store: string,
    readonly operation: string,
    cause: unknown,
  ) {
    super(`the file store ${store} is unavailable (${operation}: ${(cause as Error)?.message ?? String(cause)})`);
    this.name = 'FileStoreUnavailableError';
    fileStoreErrors.inc({ store: storeLabel(store), operation });
  }
}

/**
 * A stored file is damaged (its bytes do not match the hash or size its row records) or gone: a 409 that says so, never
 * a 5xx (issue 36: asking again cannot help until the operator restores the file, so clients that retry every 5xx
 * must not), and `chasqui_file_integrity_failures_total`, which is what alerts the operator.
 */
export class FileIntegrityError extends Error {
  readonly status = 409;
  readonly expose = true;
  constructor(
    readonly kind: string,
    readonly key: string,
    readonly reason: 'hash' | 'size' | 'missing',
    store: string,
  ) {
    super(
      reason === 'missing'
        ? `the stored ${kind} ${key} is missing from ${store}`
        : `the stored ${kind} ${key} does not match its recorded ${reason === 'hash' ? 'SHA-256' : 'size'} (${store}): restore it from a backup`,
    );
    this.name = 'FileIntegrityError';
    fileIntegrityFailures.inc({ kind, store: storeLabel(store), reason });
  }
}

/** Thrown by a store's `get` for a key it does not hold; the reader turns it into a FileIntegrityError. */
export class FileMissingError extends Error {
  constructor(readonly key: string) {
    super(`no object ${key}`);
    this.name = 'FileMissingError';
  }
}

/** A metric label: the store's kind, never a bucket or path (bounded cardinality). */
function storeLabel(store: string): string {
  return store.split(':')[0];
}

/** The SHA-256 of the bytes, as the row records it (32 bytes) and the key names it (in hex). */
export function sha256Of(bytes: Buffer): Buffer {
  return createHash('sha256').update(bytes).digest();
}

/**
 * The content-addressed key of a document's file: readable prefix (RUC, document type, issue year and month, so an
 * operator can list one company's month) and the SHA-256 of the bytes. Every part is checked, never taken as given.
 */
export function documentFileKey(
  doc: { ruc: string; doc_type: string; issue_date: string },
  extension: 'xml' | 'zip',
  sha256: string,
): string {
  const date = /^(\d{4})-(\d{2})-\d{2}$/.exec(doc.issue_date);
  if (!/^\d{11}$/.test(doc.ruc) || !/^[0-9a-z]{2}$/.test(doc.doc_type) || !date || !/^[0-9a-f]{64}$/.test(sha256))
    throw new Error(`no file key for ${doc.ruc}/${doc.doc_type}/${doc.issue_date}`);
  return `${doc.ruc}/${doc.doc_type}/${date[1]}/${date[2]}/${sha256}.${extension}`;
}

/**
 * Passes the bytes through while hashing them, and holds the last chunk back until the whole object has been checked
 * against the hash and size its row records: a damaged object never reaches its reader complete (a download ends
 * short of its Content-Length instead of delivering wrong bytes), and the stream fails with a FileIntegrityError.
 */
export function verifying(
  source: Readable,
  expected: { kind: string; key: string; sha256: string; size: number | null; store: string },
): Readable {
  const hash = createHash('sha256');
  let held: Buffer | null = null;
  let size = 0;
  const check = new Transform({
    transform(chunk: Buffer, _encoding, done: TransformCallback) {
      hash.update(chunk);
      size += chunk.length;
      const previous = held;
      held = chunk;
      done(null, previous ?? undefined);
    },
    flush(done: TransformCallback) {
      if (expected.size !== null && size !== expected.size)
        return done(new FileIntegrityError(expected.kind, expected.key, 'size', expected.store));
      if (hash.digest('hex') !== expected.sha256)
        return done(new FileIntegrityError(expected.kind, expected.key, 'hash', expected.store));
      done(null, held ?? undefined);
    },
  });
  source.on('error', (err) => check.destroy(err));
  return source.pipe(check);
}

/**
 * The stream once its first chunk has passed the check: a file of one chunk (most XML and every CDR) is then checked
 * whole before anything is answered, so a damaged one fails here, where the caller can still answer with an error.
 */
export async function started(stream: Readable): Promise<Readable> {
  const chunks = stream[Symbol.asyncIterator]();
  const first = await chunks.next();
  return Readable.from(
    (async function* () {
      if (first.done) return;
      yield first.value as Buffer;
      for (let next = await chunks.next(); !next.done; next = await chunks.next()) yield next.value as Buffer;
    })(),
    { objectMode: false },
  );
}

/** A stream read whole (what a reader that needs all of it anyway: the send, the PDF, an attachment). */
export async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
