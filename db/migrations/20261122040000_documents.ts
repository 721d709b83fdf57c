import type { Knex } from 'knex';

/**
 * Issued documents (the source of truth for GET /v1/cpe/{external_id}) and their resolution events (the outbox
 * the webhook delivery reads). The signed XML is kept as issued: `resend` sends exactly these bytes again.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('documents', (t) => {
    // The external_id the integrator stores.
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    t.uuid('company_id').notNullable().references('companies.id').onDelete('CASCADE');
    t.string('ruc', 11).notNullable();
    t.text('doc_type').notNullable();
    t.text('series').notNullable();
    t.bigInteger('number').notNullable();
    t.text('filename').notNullable();
    t.date('issue_date').notNullable();
    t.text('currency');
    t.string('environment', 2).notNullable();
    // Where it goes and who signed it, frozen at issue time: later company changes do not re-route a document.
    t.text('destination').notNullable();
    t.text('signed_by').notNullable();
    t.text('status').notNullable();
    t.string('status_code', 2).notNullable();
    t.boolean('resolved').notNullable().defaultTo(false);
    t.text('ticket');
    // The `result` object of spec 2.5, null until a send attempt happened.
    t.jsonb('result');
    t.text('hash').notNullable();
    t.text('xml').notNullable();
    t.text('cdr_zip');
    t.jsonb('totals');
    t.jsonb('warnings').notNullable().defaultTo('[]');
    t.integer('send_attempts').notNullable().defaultTo(0);
    // Set while a send is under way: a worker that dies mid-send leaves it, and the next attempt queries first.
    t.timestamp('send_started_at', { useTz: true });
    // Null until the document's workflow has been started; the sweeper starts the ones an API crash left behind.
    t.timestamp('workflow_started_at', { useTz: true });
    t.timestamp('sent_at', { useTz: true });
    t.timestamp('resolved_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['company_id', 'doc_type', 'series', 'number']);
    t.index(['company_id', 'created_at']);
  });
  await knex.raw('create index documents_unstarted on documents (created_at) where workflow_started_at is null');
  await knex.raw('create index documents_unresolved on documents (status) where not resolved');

  await knex.schema.createTable('document_events', (t) => {
    t.bigIncrements('id');
    t.uuid('document_id').notNullable().references('documents.id').onDelete('CASCADE');
    t.uuid('company_id').notNullable();
    // Spec 6: the one event, `cpe.resolved`, fired once when the document crosses to accepted, observed or rejected.
    t.text('event').notNullable();
    t.text('status').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['document_id', 'event']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('document_events');
  await knex.schema.dropTableIfExists('documents');
}
