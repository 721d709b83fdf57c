import type { Knex } from 'knex';

/**
 * Spec 1: sending to SUNAT with the company's own certificate needs its secondary SOL user (the principal one is for
 * the portal procedures). Sealed like every other password.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('companies', (t) => {
    t.text('sol_secondary_user');
    t.text('sol_secondary_password_sealed');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('companies', (t) => {
    t.dropColumn('sol_secondary_user');
    t.dropColumn('sol_secondary_password_sealed');
  });
}
