import type { Knex } from 'knex';

/**
 * Whether the workflow queries a document's real state by itself (issue 34): recorded with each step's outcome from the
 * same predicate the workflow's plan uses (activities/document-routing.ts `queryable`), so support's "why it waits"
 * never promises a query the workflow will not make (an OSE, a guía, SUNAT's beta). Null: recorded before this column.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('documents', (t) => {
    t.boolean('queryable');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('documents', (t) => {
    t.dropColumn('queryable');
  });
}
