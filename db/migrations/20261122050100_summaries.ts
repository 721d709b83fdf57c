import type { Knex } from 'knex';

/**
 * The daily summary lifecycle (docs/summaries.md):
 * - `summaries`: one row per rc document the summary run generated (the rc itself is a row of `documents`), with the
 *   run that owns it, so a retried run finds its own summaries again instead of generating new ones;
 * - `summary_lines`: which receipt went into which rc, with which condition code (catalog 19: 1 add, 3 void). A line
 *   of a summary rejected as a whole is marked `rejected` and its receipt goes back to the pool; the partial unique
 *   index makes "included twice" impossible: a receipt has at most one live line per condition;
 * - `document_voids`: void requests (`POST /v1/cpe/{external_id}/void`), one per document, waiting for the next
 *   summary (receipts) or already carried by an `ra` (invoices and their notes).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('summaries', (t) => {
    t.uuid('document_id').primary().references('documents.id').onDelete('CASCADE');
    t.uuid('company_id').notNullable().references('companies.id').onDelete('CASCADE');
    // The workflow id of the company's summary run that generated it.
    t.text('run_id').notNullable();
    // Issue date of the receipts it lists (the rc's ReferenceDate).
    t.date('reference_date').notNullable();
    // Null until the rc resolved and every line was moved to its final state.
    t.timestamp('settled_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['run_id']);
  });

  await knex.schema.createTable('summary_lines', (t) => {
    t.bigIncrements('id');
    t.uuid('summary_id').notNullable().references('summaries.document_id').onDelete('CASCADE');
    t.uuid('document_id').notNullable().references('documents.id').onDelete('CASCADE');
    t.integer('line_no').notNullable();
    t.string('condition_code', 1).notNullable();
    // pending while the rc is out; then accepted, observed or rejected (the rc's verdict).
    t.text('state').notNullable().defaultTo('pending');
    t.unique(['summary_id', 'line_no']);
    t.index(['document_id']);
  });
  await knex.raw(
    `create unique index summary_lines_live on summary_lines (document_id, condition_code) where state <> 'rejected'`,
  );

  await knex.schema.createTable('document_voids', (t) => {
    t.uuid('document_id').primary().references('documents.id').onDelete('CASCADE');
    t.uuid('company_id').notNullable().references('companies.id').onDelete('CASCADE');
    t.text('reason').notNullable();
    // rc: a condition 3 line in the next daily summary; ra: a comunicación de baja sent at once.
    t.string('via', 2).notNullable();
    // The ra document carrying the void (via ra); rc lines are found through summary_lines.
    t.uuid('voided_by').references('documents.id').onDelete('SET NULL');
    // What the last daily summary carrying it answered (spec 2.5 result shape), null before any.
    t.jsonb('result');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['company_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('document_voids');
  await knex.schema.dropTableIfExists('summary_lines');
  await knex.schema.dropTableIfExists('summaries');
}
