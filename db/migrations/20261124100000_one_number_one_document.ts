import type { Knex } from 'knex';

/**
 * One series-number is one document (docs/issuing.md, "One number, one document"): SUNAT keeps a number for ever,
 * whatever happened to its document, so chasqui does too, per RUC and environment (SUNAT's beta and production are
 * separate registries) and across accounts. The index is what makes it race-proof; `payload_hash` (SHA-256 of the
 * request body that issued the document) tells a byte-identical repeat, answered as a replay, from another document.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('documents', (t) => {
    t.text('payload_hash');
  });
  // A database that already holds one number twice (issued before this rule) cannot take the index: say which.
  const { rows } = await knex.raw(
    `select ruc, environment, doc_type, series, number, count(*)::int as copies from documents
      group by 1, 2, 3, 4, 5 having count(*) > 1 order by 1, 2, 3, 4, 5 limit 5`,
  );
  if (rows.length) {
    const listed = rows
      .map(
        (r: Record<string, unknown>) =>
          `${r.ruc} ${r.environment} ${r.doc_type} ${r.series}-${r.number} (${r.copies} documents)`,
      )
      .join('; ');
    throw new Error(
      `documents already holds a series-number more than once, so "one number, one document" cannot be enforced until each extra copy is renumbered or removed (docs/issuing.md): ${listed}`,
    );
  }
  await knex.raw('create unique index documents_one_number on documents (ruc, environment, doc_type, series, number)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists documents_one_number');
  await knex.schema.alterTable('documents', (t) => {
    t.dropColumn('payload_hash');
  });
}
