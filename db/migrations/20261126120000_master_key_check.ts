import type { Knex } from 'knex';

/**
 * One value sealed with the master key (db/sealed-secrets.ts): api and worker open it at start, so a wrong key is
 * reported before the first secret is needed (a SOL password at the first send, a webhook secret at the first notice).
 * Written by the first process that starts with a key able to open the stored secrets; re-sealed by `chasqui keys rotate`.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('master_key_check', (t) => {
    t.integer('id').primary();
    t.text('sealed').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('master_key_check');
}
