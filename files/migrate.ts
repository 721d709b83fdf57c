import type { Db } from '../db/knex';
import {
  countToMove,
  filesNamed,
  nextToMove,
  recordMovedIn,
  recordMovedOut,
  type Direction,
} from '../db/document-files';
import { DocumentFiles } from './documents';
import type { ObjectStore } from './store';

export interface MigrationProgress {
  done: number;
  total: number;
  bytes: number;
  /** Documents per second since the start. */
  rate: number;
  /** Seconds left at that rate; null before the first document. */
  etaSeconds: number | null;
}

export interface MigrationOptions {
  /** Where the files go: an object store, or null for PostgreSQL (the rows). */
  target: ObjectStore | null;
  /** Where keyed files are read from when moving them back (the store CHASQUI_FILES_URL names). */
  source: ObjectStore | null;
  /** At most this many documents a second (null: as fast as it goes). */
  rate: number | null;
  batch: number;
  progress(p: MigrationProgress): void;
  /** Asked between documents: true stops after the one in flight (Ctrl-C). */
  stopped(): boolean;
  /** Injected for tests of the pacing; the CLI waits for real. */
  wait?(ms: number): Promise<void>;
}

export function directionTo(target: ObjectStore | null): Direction {
  return target ? 'out' : 'in';
}

/** What a migration to `target` would move: documents and bytes (a dry run's plan). */
export function plannedMigration(db: Db, target: ObjectStore | null) {
  return countToMove(db, directionTo(target));
}

/**
 * Moves every document's files to `target`, oldest first, in batches: each file is written to the object store and
 * then the row names its key (or, back to PostgreSQL, read from the store, checked, and put back in its row). The
 * keys are content-addressed and each row is changed only while it still holds what was read, so a run stopped or
 * killed anywhere is simply run again; until a document has moved, readers find its files where they were.
 */
export async function migrateFiles(db: Db, options: MigrationOptions): Promise<{ moved: number; total: number }> {
  const direction = directionTo(options.target);
  if (direction === 'in' && !options.source)
    throw new Error(
      'moving files back to PostgreSQL reads them from the object store CHASQUI_FILES_URL names: set it to that store for this run',
    );
  const wait = options.wait ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const { documents: total } = await countToMove(db, direction);
  const started = Date.now();
  let moved = 0;
  let bytes = 0;
  const report = () => {
    const seconds = Math.max((Date.now() - started) / 1000, 0.001);
    const rate = moved / seconds;
    options.progress({
      done: moved,
      total,
      bytes,
      rate,
      etaSeconds: moved ? Math.max(total - moved, 0) / rate : null,
    });
  };
  const writer = new DocumentFiles(options.target);
  const reader = new DocumentFiles(options.source);
  let after: { created_at: Date; id: string } | null = null;
  let lastReport = Date.now();
  for (;;) {
    const rows = await nextToMove(db, direction, after, options.batch);
    if (!rows.length) break;
    for (const row of rows) {
      if (options.stopped()) {
        report();
        return { moved, total };
      }
      if (direction === 'out') {
        const xml = row.xml === null ? null : await writer.put(row, 'xml', Buffer.from(row.xml, 'utf8'));
        const cdr = row.cdr_zip === null ? null : await writer.put(row, 'cdr', Buffer.from(row.cdr_zip, 'base64'));
        await recordMovedOut(db, row.id, xml, cdr);
        bytes += (xml?.size ?? 0) + (cdr?.size ?? 0);
      } else {
        const xml = row.xml_sha256 ? await reader.xmlOf({ ...row, xml: null }) : null;
        const cdr = row.cdr_sha256 ? await reader.read({ ...row, xml: null, cdr_zip: null }, 'cdr') : null;
        await recordMovedIn(db, row, xml, cdr && cdr.toString('base64'));
        bytes += (row.xml_size ?? 0) + (row.cdr_size ?? 0);
      }
      moved++;
      after = { created_at: row.created_at, id: row.id };
      if (options.rate) {
        const due = started + (moved / options.rate) * 1000;
        if (due > Date.now()) await wait(due - Date.now());
      }
      if (Date.now() - lastReport >= 2_000) {
        lastReport = Date.now();
        report();
      }
    }
  }
  report();
  return { moved, total };
}

export interface Orphan {
  key: string;
  size: number;
  modified: Date;
}

/** `RUC/type/YYYY/MM/<sha256>.xml|zip`: the prefix a document file's key starts with. */
const DOCUMENT_KEY = /^(\d{11})\/([0-9a-z]{2})\/(\d{4})\/(\d{2})\/([0-9a-f]{64}\.(?:xml|zip))$/;

/**
 * Objects no row names, written more than `olderThanMs` ago: left by a crash between the object and its row, by an
 * issue refused after its XML was written (a number taken meanwhile), or by a migration back to PostgreSQL. Younger
 * objects are never reported (their row may be committing). Objects that are not document files are left alone.
 */
export async function* findOrphans(
  db: Db,
  store: ObjectStore,
  olderThanMs: number,
  now = Date.now(),
): AsyncIterable<Orphan> {
  // Both stores list one prefix's objects together (S3 in key order, the directory one folder at a time): the rows
  // of one prefix are asked for once, and only that prefix's keys are held.
  let prefix = '';
  let named = new Set<string>();
  for await (const object of store.list()) {
    const match = DOCUMENT_KEY.exec(object.key);
    if (!match || now - object.modified.getTime() < olderThanMs) continue;
    const [, ruc, docType, year, month, name] = match;
    if (prefix !== `${ruc}/${docType}/${year}/${month}`) {
      prefix = `${ruc}/${docType}/${year}/${month}`;
      named = await filesNamed(db, ruc, docType, `${year}-${month}`);
    }
    if (!named.has(name)) yield object;
  }
}
