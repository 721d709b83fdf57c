import type { Knex } from 'knex';

/**
 * Issue 43: people with roles instead of one shared account token (docs/security.md, "People").
 * - `account_users`: a person of an account, by e-mail (unique among live users: the sign-in names nobody else), a
 *   role and optionally the companies it is limited to (null: all). The password is an scrypt hash with its
 *   parameters; failed sign-ins and `locked_until` make the capped lockout. The TOTP secret is sealed with the master
 *   key; `totp_last_step` refuses a code used once from being used again.
 * - `user_recovery_codes`: ten one-time codes per user, SHA-256 only.
 * - `user_links`: invitations and password resets, one-time links by e-mail (SHA-256 of the link's secret).
 * - `accounts`: whether every user must have a second factor, and whether the account token still opens the console.
 * - `console_sessions`: a user's session, the second factor it still owes (`pending`) and when it last gave one.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('account_users', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    t.text('email').notNullable();
    t.text('role').notNullable();
    t.specificType('company_ids', 'uuid[]');
    t.text('password_hash');
    t.integer('failed_signins').notNullable().defaultTo(0);
    t.timestamp('locked_until', { useTz: true });
    t.text('totp_secret_sealed');
    t.timestamp('totp_enabled_at', { useTz: true });
    t.bigInteger('totp_last_step');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('removed_at', { useTz: true });
  });
  await knex.raw(`alter table account_users add constraint account_users_role
    check (role in ('owner', 'administrator', 'emisor', 'contador', 'desarrollador'))`);
  await knex.raw('create unique index account_users_email on account_users (email) where removed_at is null');
  await knex.schema.createTable('user_recovery_codes', (t) => {
    t.uuid('user_id').notNullable().references('account_users.id').onDelete('CASCADE');
    t.text('code_hash').notNullable();
    t.timestamp('used_at', { useTz: true });
    t.primary(['user_id', 'code_hash']);
  });
  await knex.schema.createTable('user_links', (t) => {
    t.text('token_hash').primary();
    t.uuid('user_id').notNullable().references('account_users.id').onDelete('CASCADE');
    // invite | reset
    t.text('kind').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('used_at', { useTz: true });
  });
  await knex.schema.alterTable('accounts', (t) => {
    t.boolean('require_two_factor').notNullable().defaultTo(false);
    t.boolean('token_console').notNullable().defaultTo(true);
  });
  await knex.schema.alterTable('console_sessions', (t) => {
    t.uuid('user_id').references('account_users.id').onDelete('CASCADE');
    // null, 'totp' (a code still owed) or 'enrol' (the account requires a second factor the user has not set up)
    t.text('pending');
    t.timestamp('second_factor_at', { useTz: true });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('console_sessions', (t) => {
    t.dropColumn('user_id');
    t.dropColumn('pending');
    t.dropColumn('second_factor_at');
  });
  await knex.schema.alterTable('accounts', (t) => {
    t.dropColumn('require_two_factor');
    t.dropColumn('token_console');
  });
  await knex.schema.dropTable('user_links');
  await knex.schema.dropTable('user_recovery_codes');
  await knex.schema.dropTable('account_users');
}
