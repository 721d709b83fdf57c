import type { Knex } from 'knex';

/** GRE OAuth tokens shared by every worker: one per API client and RUC, sealed with the master key. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('gre_tokens', (t) => {
    t.text('client_id').notNullable();
    t.string('ruc', 11).notNullable();
    t.text('access_token_sealed').notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['client_id', 'ruc']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('gre_tokens');
}
