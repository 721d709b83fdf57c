import type { Knex } from 'knex';

/**
 * Issue 28: the support console.
 * - `support_tokens`: support staff's tokens (scope support:operate, every account), named so a person can list and
 *   revoke them; only the SHA-256 is stored, the token is shown once.
 * - `console_sessions`: a signed-in browser. The cookie carries a random id whose SHA-256 is the key here; the CSRF
 *   token every POST must carry is stored with it. Idle sessions end after the configured time.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('support_tokens', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('name').notNullable().unique();
    t.text('token_hash').notNullable().unique();
    t.text('created_by').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('expires_at', { useTz: true });
    t.timestamp('revoked_at', { useTz: true });
  });
  await knex.schema.createTable('console_sessions', (t) => {
    t.text('id_hash').primary();
    // support | account
    t.text('kind').notNullable();
    t.text('name').notNullable();
    t.uuid('support_token_id').references('support_tokens.id').onDelete('CASCADE');
    t.uuid('api_token_id').references('api_tokens.id').onDelete('CASCADE');
    t.uuid('account_id').references('accounts.id').onDelete('CASCADE');
    t.text('csrf').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('last_seen_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('ended_at', { useTz: true });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('console_sessions');
  await knex.schema.dropTable('support_tokens');
}
