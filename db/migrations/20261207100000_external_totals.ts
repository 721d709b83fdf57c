import type { Knex } from 'knex';
import { EXTERNAL_TOTAL_TYPES, storedExternalTotals } from '../../documents/external';
import type { DocType } from '../../documents/types';

/** Ids read per round; each XML is then read alone, so memory holds one document at a time. */
const BATCH = 500;

/**
 * Externally signed documents were stored without their total, which `/consulta` then matched with 0 or none (issue
 * 40). Those whose XML is in the row get the total their XML says, read as issuing reads it now; the others (XML in
 * an object store, or no total readable) keep none, and `/consulta` finds a document of a type with a printed total
 * only by a stored one. Each row is its own statement, outside one transaction: run again, it carries on where it
 * stopped.
 */
export const config = { transaction: false };

export async function up(knex: Knex): Promise<void> {
  let after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    const rows: { id: string; doc_type: DocType }[] = await knex('documents')
      .select('id', 'doc_type')
      .where({ signed_by: 'external' })
      .whereNull('totals')
      .whereNotNull('xml')
      .whereIn('doc_type', EXTERNAL_TOTAL_TYPES)
      .where('id', '>', after)
      .orderBy('id')
      .limit(BATCH);
    if (!rows.length) return;
    for (const row of rows) {
      const { xml } = await knex('documents').where({ id: row.id }).first('xml');
      const totals = storedExternalTotals(xml, row.doc_type);
      if (totals)
        await knex('documents')
          .where({ id: row.id })
          .update({ totals: JSON.stringify(totals) });
    }
    after = rows[rows.length - 1].id;
  }
}

/** The totals written are what each document's own XML says: nothing to take back. */
export async function down(): Promise<void> {}
