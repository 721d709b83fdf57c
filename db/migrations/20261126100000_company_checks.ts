import type { Knex } from 'knex';

/**
 * Company checks (docs/operations.md, "Company checks"): the latest result of each check per company, the changes
 * to warn or fail that were notified, and webhook deliveries that carry such a change instead of a document.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('company_checks', (t) => {
    t.uuid('company_id').notNullable().references('companies.id').onDelete('CASCADE');
    t.text('check').notNullable();
    // ok | warn | fail | unknown
    t.text('status').notNullable();
    // The last status that was not unknown: an authority that is down for a while does not make a check flap.
    t.text('known_status');
    t.text('detail').notNullable();
    // The check's own fields (days_left, gaps, documents…).
    t.jsonb('fields').notNullable().defaultTo('{}');
    t.timestamp('checked_at', { useTz: true }).notNullable();
    t.primary(['company_id', 'check']);
  });

  await knex.schema.createTable('company_check_events', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('company_id').notNullable().references('companies.id').onDelete('CASCADE');
    t.text('check').notNullable();
    t.text('status').notNullable();
    t.text('previous_status');
    t.text('detail').notNullable();
    t.jsonb('fields').notNullable().defaultTo('{}');
    t.timestamp('checked_at', { useTz: true }).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    // Set once its delivery workflow was started (or nothing was due: no webhook); null ones are started again.
    t.timestamp('webhook_started_at', { useTz: true });
    t.index(['company_id', 'created_at']);
  });
  await knex.raw(
    'create index company_check_events_unnotified on company_check_events (company_id) where webhook_started_at is null',
  );

  // A delivery carries a document's resolution or a check's change, never both.
  await knex.schema.alterTable('webhook_deliveries', (t) => {
    t.uuid('check_event_id').references('company_check_events.id').onDelete('CASCADE');
  });
  await knex.raw('alter table webhook_deliveries alter column document_id drop not null');
  await knex.raw(
    'alter table webhook_deliveries add constraint webhook_deliveries_one_subject check ((document_id is null) <> (check_event_id is null))',
  );
  await knex.raw(
    'create unique index webhook_deliveries_original_check on webhook_deliveries (check_event_id) where redelivery_of is null and check_event_id is not null',
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex('webhook_deliveries').whereNotNull('check_event_id').delete();
  await knex.raw('drop index if exists webhook_deliveries_original_check');
  await knex.raw('alter table webhook_deliveries drop constraint if exists webhook_deliveries_one_subject');
  await knex.raw('alter table webhook_deliveries alter column document_id set not null');
  await knex.schema.alterTable('webhook_deliveries', (t) => {
    t.dropColumn('check_event_id');
  });
  await knex.schema.dropTableIfExists('company_check_events');
  await knex.schema.dropTableIfExists('company_checks');
}
