import type { Knex } from 'knex';

/**
 * A company check's outcome as a code and its parameters (lifecycle/messages/codes.ts `check.*`), beside its English
 * `detail`: the console says the reason in Spanish (issue 34). Null for results recorded before.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('company_checks', (t) => {
    t.jsonb('message');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('company_checks', (t) => {
    t.dropColumn('message');
  });
}
