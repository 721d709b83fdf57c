import type { Knex } from 'knex';

/**
 * The rate limit becomes a sliding log (docs/issuing.md, "Rate limit"): per token, the times of the requests admitted
 * in the last window, so no burst of twice the limit fits across a minute boundary as it did with fixed windows.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('rate_limit_log', (t) => {
    t.uuid('token_id').primary();
    t.specificType('hits', 'timestamptz[]').notNullable();
  });
  await knex.schema.dropTableIfExists('rate_limit_windows');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('rate_limit_log');
  await knex.schema.createTable('rate_limit_windows', (t) => {
    t.uuid('token_id').notNullable();
    t.timestamp('window_start', { useTz: true }).notNullable();
    t.integer('count').notNullable();
    t.primary(['token_id', 'window_start']);
  });
}
