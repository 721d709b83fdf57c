import type { Knex } from 'knex';

/**
 * Issue 11: the documents list (GET /v1/cpe), the account balance (GET /v1/account) and support staff's tools.
 * - `customer_doc`: the customer's document number, for the `cliente` filter and for `chasqui support find`.
 * - Indexes for the list: every filter leads with the company and ends with the page order (created_at, id), so a
 *   page is one index range read however many documents the company has (docs/benchmarks.md, bench:list).
 * - `document_attempts`: each send, ticket poll and state query with its classification (the timeline `find` shows).
 * - `support_actions`: who did what to which document from `chasqui support`, and what came of it.
 */
export async function up(knex: Knex): Promise<void> {
  // GET /v1/account: plan 01 signatures used so far, counted where they are consumed.
  await knex.schema.alterTable('accounts', (t) => {
    t.decimal('quota_used_units', 14, 3).notNullable().defaultTo(0);
  });
  await knex.schema.alterTable('documents', (t) => {
    t.text('customer_doc');
  });
  await knex.raw('drop index if exists documents_company_id_created_at_index');
  await knex.raw('create index documents_page on documents (company_id, created_at desc, id desc)');
  await knex.raw('create index documents_page_status on documents (company_id, status, created_at desc, id desc)');
  await knex.raw('create index documents_page_type on documents (company_id, doc_type, created_at desc, id desc)');
  await knex.raw('create index documents_page_series on documents (company_id, series, created_at desc, id desc)');
  await knex.raw(
    'create index documents_page_issue_date on documents (company_id, issue_date desc, created_at desc, id desc)',
  );
  await knex.raw(
    'create index documents_page_customer on documents (company_id, customer_doc, created_at desc, id desc) where customer_doc is not null',
  );
  await knex.raw(
    'create index documents_page_unresolved on documents (company_id, created_at desc, id desc) where not resolved',
  );
  // `chasqui support stuck` across companies: unresolved by age.
  await knex.raw('drop index if exists documents_unresolved');
  await knex.raw('create index documents_unresolved on documents (created_at, status) where not resolved');
  // `chasqui support find F001-10` without a RUC.
  await knex.raw('create index documents_number on documents (series, number)');

  await knex.schema.createTable('document_attempts', (t) => {
    t.bigIncrements('id');
    t.uuid('document_id').notNullable().references('documents.id').onDelete('CASCADE');
    // send | ticket | query
    t.text('step').notNullable();
    t.text('status').notNullable();
    t.text('code');
    t.text('origin');
    t.text('message');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['document_id', 'id']);
  });

  await knex.schema.createTable('support_actions', (t) => {
    t.bigIncrements('id');
    t.uuid('document_id').notNullable().references('documents.id').onDelete('CASCADE');
    t.text('operator').notNullable();
    // recheck | resend | redeliver
    t.text('action').notNullable();
    // done | refused | failed
    t.text('result').notNullable();
    t.text('detail');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['document_id', 'id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('support_actions');
  await knex.schema.dropTableIfExists('document_attempts');
  for (const name of [
    'page',
    'page_status',
    'page_type',
    'page_series',
    'page_issue_date',
    'page_customer',
    'page_unresolved',
    'number',
    'unresolved',
  ]) {
    await knex.raw(`drop index if exists documents_${name}`);
  }
  await knex.raw('create index documents_unresolved on documents (status) where not resolved');
  await knex.raw('create index documents_company_id_created_at_index on documents (company_id, created_at)');
  await knex.schema.alterTable('documents', (t) => t.dropColumn('customer_doc'));
  await knex.schema.alterTable('accounts', (t) => t.dropColumn('quota_used_units'));
}
