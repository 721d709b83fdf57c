import type { Db } from './knex';
import type { DocumentRow } from './documents';

/** What the migration reads of a document: where its files are, and what their keys are made of. */
export type FileRow = Pick<
  DocumentRow,
  | 'id'
  | 'ruc'
  | 'doc_type'
  | 'issue_date'
  | 'created_at'
  | 'xml'
  | 'cdr_zip'
  | 'xml_sha256'
  | 'xml_size'
  | 'cdr_sha256'
  | 'cdr_size'
>;

/** `out`: files still in their rows, to an object store; `in`: files in an object store, back into their rows. */
export type Direction = 'out' | 'in';

function waiting(db: Db, direction: Direction) {
  return direction === 'out'
    ? db('documents').where((q) => q.whereNotNull('xml').orWhereNotNull('cdr_zip'))
    : db('documents').where((q) => q.whereNotNull('xml_sha256').orWhereNotNull('cdr_sha256'));
}

/** How many documents have a file still to move, and their bytes (what the migration's progress counts against). */
export async function countToMove(db: Db, direction: Direction): Promise<{ documents: number; bytes: number }> {
  const sizes =
    direction === 'out'
      ? 'coalesce(octet_length(xml), 0) + coalesce(octet_length(cdr_zip) * 3 / 4, 0)'
      : 'coalesce(xml_size, 0) + coalesce(cdr_size, 0)';
  const [row] = await waiting(db, direction).select(
    db.raw('count(*)::int as documents'),
    db.raw(`coalesce(sum(${sizes}), 0)::float8 as bytes`),
  );
  return { documents: row.documents, bytes: row.bytes };
}

/** The next documents with a file to move, oldest first after `after` (a crashed run starts again from the top). */
export function nextToMove(
  db: Db,
  direction: Direction,
  after: { created_at: Date; id: string } | null,
  limit: number,
): Promise<FileRow[]> {
  const q = waiting(db, direction).select(
    'id',
    'ruc',
    'doc_type',
    db.raw("to_char(issue_date, 'YYYY-MM-DD') as issue_date"),
    'created_at',
    'xml',
    'cdr_zip',
    'xml_sha256',
    'xml_size',
    'cdr_sha256',
    'cdr_size',
  );
  if (after) q.whereRaw('(created_at, id) > (?, ?)', [after.created_at, after.id]);
  return q.orderBy([{ column: 'created_at' }, { column: 'id' }]).limit(limit) as unknown as Promise<FileRow[]>;
}

/**
 * A document's files now in an object store (written before this): the row records their SHA-256 (which, with its
 * RUC, type and date, is their key) and lets go of the bytes. Each file only if the row still holds it, so a run
 * repeated after a crash changes nothing twice.
 */
export async function recordMovedOut(
  db: Db,
  id: string,
  xml: { sha256: Buffer; size: number } | null,
  cdr: { sha256: Buffer; size: number } | null,
): Promise<void> {
  if (xml)
    await db('documents')
      .where({ id })
      .whereNotNull('xml')
      .update({ xml: null, xml_sha256: xml.sha256, xml_size: xml.size });
  if (cdr)
    await db('documents')
      .where({ id })
      .whereNotNull('cdr_zip')
      .update({ cdr_zip: null, cdr_sha256: cdr.sha256, cdr_size: cdr.size });
}

/** A document's files back in its row, read (and checked) from the store: only while the row names the same ones. */
export async function recordMovedIn(
  db: Db,
  row: Pick<FileRow, 'id' | 'xml_sha256' | 'cdr_sha256'>,
  xml: string | null,
  cdrZip: string | null,
): Promise<void> {
  if (xml !== null)
    await db('documents')
      .where({ id: row.id, xml_sha256: row.xml_sha256 })
      .update({ xml, xml_sha256: null, xml_size: null });
  if (cdrZip !== null)
    await db('documents')
      .where({ id: row.id, cdr_sha256: row.cdr_sha256 })
      .update({ cdr_zip: cdrZip, cdr_sha256: null, cdr_size: null });
}

/**
 * The files the rows of one RUC, type and issue month name, as the last part of their keys (`<sha256>.xml|.zip`: the
 * rest of the key is that prefix): the orphan sweeper's question for one prefix of the store, through the one-number
 * index's RUC, so no index of hashes is kept for a question asked once a day.
 */
export async function filesNamed(db: Db, ruc: string, docType: string, month: string): Promise<Set<string>> {
  const from = `${month}-01`;
  const rows: { name: string }[] = await db
    .from(
      db('documents')
        .where({ ruc, doc_type: docType })
        .where('issue_date', '>=', from)
        .where('issue_date', '<', db.raw("(?::date + interval '1 month')", [from]))
        .select(
          db.raw("encode(xml_sha256, 'hex') || '.xml' as xml_name"),
          db.raw("encode(cdr_sha256, 'hex') || '.zip' as cdr_name"),
        )
        .as('named'),
    )
    .select(db.raw('unnest(array[xml_name, cdr_name]) as name'));
  return new Set(rows.map((r) => r.name).filter((name) => !!name));
}
