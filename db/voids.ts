/**
 * Void requests (`document_voids`, docs/summaries.md): recorded once per document, carried by an ra or by a line of a
 * daily summary (db/summaries.ts), and where each stands.
 */
import type { Knex } from 'knex';
import { recordChange, type AuditEntry } from './audit';
import type { Db } from './knex';
import { findDocument, insertDocument, type DocumentResult, type DocumentRow, type NewDocument } from './documents';
import { nextSequence } from './summaries';
import { isValidVerdict, voidStatus, type DocStatus } from '../lifecycle/transitions';

/** Where a void request stands (docs/summaries.md). */
export interface VoidRow {
  document_id: string;
  company_id: string;
  reason: string;
  via: 'rc' | 'ra';
  voided_by: string | null;
  result: DocumentResult | null;
  created_at: Date;
}

export async function findVoid(db: Db, documentId: string): Promise<VoidRow | null> {
  return ((await db('document_voids').where({ document_id: documentId }).first()) as VoidRow | undefined) ?? null;
}

/**
 * Records a void request once per document (true when this call created it). With `ra`, the signed ra document is
 * stored in the same transaction, so a void is never recorded without what carries it; `audit`, when given, is
 * recorded in it too (who asked, from where).
 */
export async function insertVoid(
  db: Db,
  request: { documentId: string; companyId: string; reason: string; via: 'rc' | 'ra' },
  carrier?: (trx: Knex.Transaction) => Promise<NewDocument>,
  audit?: AuditEntry,
): Promise<{ created: boolean; row: VoidRow; carrier: DocumentRow | null }> {
  return db.transaction(async (trx) => {
    await trx('companies').where({ id: request.companyId }).forUpdate().first('id');
    const existing = (await trx('document_voids').where({ document_id: request.documentId }).first()) as
      VoidRow | undefined;
    if (existing) return { created: false, row: existing, carrier: null };
    const ra = carrier ? await insertDocument(trx, await carrier(trx)) : null;
    const [row] = await trx('document_voids')
      .insert({
        document_id: request.documentId,
        company_id: request.companyId,
        reason: request.reason,
        via: request.via,
        voided_by: ra?.id ?? null,
      })
      .returning('*');
    if (audit) await recordChange(trx, audit);
    return { created: true, row: row as VoidRow, carrier: ra };
  });
}

/** Next correlativo of an ra of a generation date, inside the void's transaction (the company row is locked). */
export function nextVoidedSequence(trx: Knex.Transaction, companyId: string, series: string): Promise<number> {
  return nextSequence(trx, companyId, series);
}

/** The rc line (condition 3) carrying a receipt's void, the latest first: the summary's document decides its state. */
export async function voidSummaryOf(db: Db, documentId: string): Promise<DocumentRow | null> {
  const row = await db('summary_lines as l')
    .join('documents as s', 's.id', 'l.summary_id')
    .where({ 'l.document_id': documentId, 'l.condition_code': '3' })
    .orderBy('l.id', 'desc')
    .first('s.*');
  return (row as DocumentRow | undefined) ?? null;
}

/**
 * Where a void stands, as lifecycle/transitions.ts `voidStatus` decides from the rc or ra carrying it (`carrier`,
 * null while there is none): `pending`, `sent`, or the carrier's verdict.
 */
export async function voidState(
  db: Db,
  row: VoidRow,
): Promise<{ status: DocStatus | 'pending'; carrier: DocumentRow | null }> {
  const carrier =
    (row.via === 'ra'
      ? row.voided_by && (await findDocument(db, row.voided_by))
      : await voidSummaryOf(db, row.document_id)) || null;
  const { status, carried } = voidStatus(row.via, carrier);
  return { status, carrier: carried ? carrier : null };
}

/** Whether the document was voided: a void whose rc or ra was accepted. */
export async function isVoided(db: Db, documentId: string): Promise<boolean> {
  const row = await findVoid(db, documentId);
  // Voided once its carrier has a valid verdict (a rejected rc leaves no carrier: the void waits for the next one).
  const { carrier } = row ? await voidState(db, row) : { carrier: null };
  return !!carrier && isValidVerdict(carrier.status);
}
