import type { Knex } from 'knex';

/** State shared by every API instance: rate-limit windows and stored idempotent responses. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('rate_limit_windows', (t) => {
    t.uuid('token_id').notNullable();
    t.timestamp('window_start', { useTz: true }).notNullable();
    t.integer('count').notNullable();
    t.primary(['token_id', 'window_start']);
  });

  await knex.schema.createTable('idempotency_keys', (t) => {
    t.uuid('token_id').notNullable();
    t.text('key').notNullable();
    // SHA-256 of method, path and raw body: the same key with another request is a 422.
    t.text('request_hash').notNullable();
    // 'in_progress' while the first request runs (a concurrent one waits for it), then 'done'.
    t.text('state').notNullable();
    t.integer('response_status');
    // Sealed with the secret box: a stored creation response holds a signing token, which is never kept in clear.
    t.text('response_sealed');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['token_id', 'key']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('idempotency_keys');
  await knex.schema.dropTableIfExists('rate_limit_windows');
}
