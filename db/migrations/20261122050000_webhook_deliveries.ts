import type { Knex } from 'knex';

/**
 * Webhook deliveries (spec 6) and every attempt of each. A delivery's id is its `X-Entrega`: the same for all its
 * attempts; a redelivery the account asks for is a new delivery pointing at the one it repeats.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('webhook_deliveries', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('company_id').notNullable().references('companies.id').onDelete('CASCADE');
    t.uuid('document_id').notNullable().references('documents.id').onDelete('CASCADE');
    t.text('event').notNullable();
    t.uuid('redelivery_of').references('webhook_deliveries.id').onDelete('CASCADE');
    // pending → delivered | failed (all attempts used) | cancelled (webhook disabled before it could be delivered)
    t.text('status').notNullable().defaultTo('pending');
    t.integer('attempts').notNullable().defaultTo(0);
    t.timestamp('next_attempt_at', { useTz: true });
    t.text('last_error');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('completed_at', { useTz: true });
    t.index(['company_id', 'created_at']);
    t.index(['document_id']);
  });
  // A document's resolution is delivered once; only redeliveries repeat it.
  await knex.raw(
    'create unique index webhook_deliveries_original on webhook_deliveries (document_id, event) where redelivery_of is null',
  );

  await knex.schema.createTable('webhook_attempts', (t) => {
    t.bigIncrements('id');
    t.uuid('delivery_id').notNullable().references('webhook_deliveries.id').onDelete('CASCADE');
    t.integer('number').notNullable();
    // The URL configured when this attempt was made (a changed URL shows here).
    t.text('url').notNullable();
    t.timestamp('started_at', { useTz: true }).notNullable();
    t.integer('http_status');
    t.integer('latency_ms');
    t.text('error');
    t.boolean('delivered').notNullable();
    // An activity that runs twice records its attempt once.
    t.unique(['delivery_id', 'number']);
  });

  // Which resolutions have had their delivery workflow started: the sweeper starts the ones no workflow did (receipts
  // resolved by their daily summary, a worker lost at the wrong moment). Earlier events count as handled.
  await knex.schema.alterTable('document_events', (t) => {
    t.timestamp('webhook_started_at', { useTz: true });
  });
  await knex('document_events').update({ webhook_started_at: knex.ref('created_at') });
  await knex.raw(
    'create index document_events_unnotified on document_events (created_at) where webhook_started_at is null',
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('document_events', (t) => {
    t.dropColumn('webhook_started_at');
  });
  await knex.schema.dropTableIfExists('webhook_attempts');
  await knex.schema.dropTableIfExists('webhook_deliveries');
}
