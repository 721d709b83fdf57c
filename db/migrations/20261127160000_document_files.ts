import type { Knex } from 'knex';

/**
 * The signed XML and the CDR may live in an object store (files/, docs/files.md): the row then keeps the object's
 * content-addressed key (`RUC/type/year/month/<sha256>.xml|.zip`, so the key carries the hash every read checks) and
 * its size, and the bytes' column is null. With the default store (`postgres:`) nothing changes: the bytes stay in
 * the row and these columns stay null, which costs a row nothing (PostgreSQL's null bitmap).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('documents', (t) => {
    t.text('xml').nullable().alter();
    t.text('xml_key');
    t.integer('xml_size');
    t.text('cdr_key');
    t.integer('cdr_size');
  });
  // A row never names a file it does not have: its XML is in the row or in the store.
  await knex.raw(
    'alter table documents add constraint documents_xml_somewhere check (xml is not null or xml_key is not null) not valid',
  );
  await knex.raw('alter table documents validate constraint documents_xml_somewhere');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('alter table documents drop constraint documents_xml_somewhere');
  await knex.schema.alterTable('documents', (t) => {
    t.dropColumn('xml_key');
    t.dropColumn('xml_size');
    t.dropColumn('cdr_key');
    t.dropColumn('cdr_size');
    t.text('xml').notNullable().alter();
  });
}
