import type { Knex } from 'knex';

/**
 * Plan consumption of issuing (spec 1, 4 rules 3–5): signing with an own certificate costs a fraction of a signature,
 * so plan 01 quota becomes a decimal number of signatures; documents sent through the provider's OSE draw on a
 * separate sending package. `service_certificates` holds certificates of the service itself (the demo signer).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('alter table accounts alter column quota_units type numeric(14, 3)');
  await knex.schema.alterTable('accounts', (t) => {
    // Sends through the provider's OSE still available to the account (production only).
    t.bigInteger('ose_package_units').notNullable().defaultTo(0);
  });
  await knex.schema.createTable('service_certificates', (t) => {
    t.text('name').primary();
    t.text('certificate_pem').notNullable();
    t.text('private_key_sealed').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('service_certificates');
  await knex.schema.alterTable('accounts', (t) => t.dropColumn('ose_package_units'));
  await knex.raw('alter table accounts alter column quota_units type bigint using round(quota_units)');
}
