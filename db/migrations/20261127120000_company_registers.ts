import type { Knex } from 'knex';

/**
 * Issue 33: SUNAT's registers (padrones) a company declares it is on, which SUNAT's sheets read when judging its
 * documents: the special IGV rate of MYPE restaurants and hotels (ind_padron 01: a document at that rate from an issuer
 * off it is observed, 4439) and the issuers obliged to send the product code (ind_padron 12: a line with neither code
 * nor GTIN is observed, 4331). Off until the company says otherwise, as SUNAT's registers are for most companies.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('companies', (t) => {
    t.boolean('register_igv_special_rate').notNullable().defaultTo(false);
    t.boolean('register_product_code').notNullable().defaultTo(false);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('companies', (t) => {
    t.dropColumns('register_igv_special_rate', 'register_product_code');
  });
}
