import type { Knex } from 'knex';

/**
 * The rate-limit log stays bounded (issue 32): each row says when it stops mattering (`expires_at`: its last request
 * plus its window) so expired rows are deleted, and a keyed row says what it limits (`kind`: consulta, console sign-in,
 * buyer e-mail…) so the live rows of one kind can be capped (db/rate-limits.ts).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('rate_limit_log', (t) => {
    t.text('kind');
    t.timestamp('expires_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['expires_at']);
    t.index(['kind']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('rate_limit_log', (t) => {
    t.dropColumn('kind');
    t.dropColumn('expires_at');
  });
}
