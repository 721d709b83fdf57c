import type { Knex } from 'knex';

/**
 * The sweeper prunes settled webhook deliveries by when they ended (CHASQUI_WEBHOOK_HISTORY_DAYS, docs/webhooks.md):
 * this index finds the oldest without reading the whole window. Pending deliveries (no completed_at) are not in it.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    'create index webhook_deliveries_settled on webhook_deliveries (completed_at) where completed_at is not null',
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists webhook_deliveries_settled');
}
