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
  await knex.raw('create unique index documents_one_number on documents (ruc, environment, doc_type, series, number)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists documents_one_number');
  await knex.schema.alterTable('documents', (t) => {
    t.dropColumn('payload_hash');
  });
}
